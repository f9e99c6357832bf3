package io.streamgrid.examples.build;

import io.streamgrid.jobs.build.SourceReferences;
import org.junit.jupiter.api.Test;

import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples are the proof that the public API suffices, and perf measures what users get: the
 * build keeps both to it. The examples' main code names no StreamGrid {@code impl} package and no
 * Hazelcast internals; perf's names no StreamGrid {@code impl} package (it may read Jet's own
 * snapshot records, which it measures). A new example or benchmark that needs more is a gap in the
 * public API, to be closed there.
 */
class PublicApiOnlyTest {
    @Test
    void when_theExamplesAreBuilt_then_theirMainCodeNamesOnlyPublicApi() throws Exception {
        final Pattern notPublic = Pattern.compile(SourceReferences.STREAMGRID_IMPL.pattern() + "|"
                + SourceReferences.HAZELCAST_INTERNALS.pattern());

        assertThat(SourceReferences.find(SourceReferences.ROOT.resolve("examples/src/main/java"), file -> true, notPublic))
                .as("uses of non-public packages in the examples").isEmpty();
    }

    @Test
    void when_perfIsBuilt_then_itNamesNoStreamGridRuntimePackage() throws Exception {
        assertThat(SourceReferences.find(SourceReferences.ROOT.resolve("perf/src/main/java"), file -> true,
                SourceReferences.STREAMGRID_IMPL)).as("uses of StreamGrid's runtime packages in perf").isEmpty();
    }
}
