package io.streamgrid.jobs.build;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * jet-jobs' API packages point one way: no class outside an {@code impl} package names one, except
 * {@code io.streamgrid.jobs.Jobs}, the one way in (it builds the runtime's DAG for a definition).
 */
class ApiPointsOneWayTest {
    @Test
    void when_jetJobsIsBuilt_then_onlyJobsAndTheImplPackagesNameTheRuntime() throws Exception {
        final Path sources = SourceReferences.ROOT.resolve("jet-jobs/src/main/java");

        assertThat(SourceReferences.find(sources, ApiPointsOneWayTest::isApi, SourceReferences.STREAMGRID_IMPL))
                .as("API classes naming an impl package").isEmpty();
        assertThat(SourceReferences.find(sources, file -> file.endsWith(Path.of("io/streamgrid/jobs/Jobs.java")),
                SourceReferences.STREAMGRID_IMPL)).as("the one way in does reach the runtime").isNotEmpty();
    }

    @Test
    void when_aLineNamesARuntimePackage_then_thePatternsFindIt() {
        assertThat(SourceReferences.STREAMGRID_IMPL.matcher("import io.streamgrid.jobs.pipeline.impl.KeyedDag;").find()).isTrue();
        assertThat(SourceReferences.STREAMGRID_IMPL.matcher("x = io.streamgrid.node.impl.ConfigTree.load(p);").find()).isTrue();
        assertThat(SourceReferences.STREAMGRID_IMPL.matcher("import io.streamgrid.jobs.keyed.KeyedJob;").find()).isFalse();
        assertThat(SourceReferences.STREAMGRID_IMPL.matcher("String s = \"io.streamgrid.implementation\";").find()).isFalse();
        assertThat(SourceReferences.HAZELCAST_INTERNALS.matcher("import com.hazelcast.jet.impl.JobRepository;").find()).isTrue();
        assertThat(SourceReferences.HAZELCAST_INTERNALS.matcher("import com.hazelcast.internal.serialization.Data;").find()).isTrue();
        assertThat(SourceReferences.HAZELCAST_INTERNALS.matcher("import com.hazelcast.jet.Job;").find()).isFalse();
    }

    @Test
    void when_thereIsNothingToRead_then_theCheckFailsInsteadOfPassing() {
        assertThatThrownBy(() -> SourceReferences.find(SourceReferences.ROOT.resolve("jet-jobs/src/main/java"), file -> false,
                Pattern.compile("x"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("no Java sources");
    }

    private static boolean isApi(final Path file) {
        final String path = file.toString().replace('\\', '/');
        return !path.contains("/impl/") && !path.equals("io/streamgrid/jobs/Jobs.java");
    }
}
