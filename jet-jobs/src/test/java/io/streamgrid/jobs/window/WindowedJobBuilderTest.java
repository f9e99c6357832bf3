package io.streamgrid.jobs.window;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowResult;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.TypedField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Jobs made with {@link WindowedJob#builder} against the brute-force oracle: 20,000 requests of 50
 * source IPs, out of order by up to 3 s and 3 % late by up to 2 minutes, in 1-minute windows sliding
 * by 10 s with 30 s of allowed lateness. The sum of the destination field (a deducting aggregation:
 * the incremental engine) and its maximum (not deducting: windows rebuilt from slices) must equal
 * the oracle's for every window, corrections by late events included; the builder refuses what it
 * cannot run, naming it.
 */
class WindowedJobBuilderTest extends EmbeddedMemberTest {
    private static final TypedField.LongField DESTINATION = EventType.REQUEST.schema().longField("destination");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_builtJobsAggregateAField_then_everyWindowEqualsTheOracle() {
        final long size = 60_000;
        final long slide = 10_000;
        final long disorder = 3_000;
        final long lateness = 30_000;
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 11, 20_000, 50).withRate(50)
                .withZipf(0.8).withDisorder(disorder, 0.03, 120_000);
        final int destination = DESTINATION.index();
        final List<WindowOracle.Event> events;
        try (BuiltInLogs logs = new BuiltInLogs(dir.resolve("ingest"), 3)) {
            events = JobTestSupport.generate(spec, logs.log(EventType.REQUEST), record -> record.getLong(destination));
        }
        final WindowOracle.Result oracle = WindowOracle.sliding(events, size, slide, disorder, lateness);
        assertThat(oracle.lateSequences()).as("the stream has events too late for some windows").isNotEmpty();
        final Map<String, Long> sums = new HashMap<>();
        final Map<String, Long> maxima = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> {
            sums.put(WindowResult.stateKey(id.key(), id.start()), accepted.stream().mapToLong(e -> (Long) e.payload()).sum());
            maxima.put(WindowResult.stateKey(id.key(), id.start()), accepted.stream().mapToLong(e -> (Long) e.payload()).max().orElseThrow());
        });

        startMember();
        final WindowedJob<LongValue> sum = WindowedJob.builder("destination-sum", EventType.REQUEST.schema())
                .sliding(size, slide).time(TimePolicy.of(disorder, lateness))
                .aggregate(Aggregations.sum(DESTINATION))
                .results(r -> r.value().value());
        final WindowedJob<LongValue> max = WindowedJob.builder("destination-max", EventType.REQUEST.schema())
                .sliding(size, slide).time(TimePolicy.of(disorder, lateness))
                .aggregate(Aggregations.max(DESTINATION))
                .results(r -> r.value().value());
        final JobOptions options = JobOptions.of(dir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        final Job sumJob = Jobs.submit(member.getJet(), sum, options);
        final Job maxJob = Jobs.submit(member.getJet(), max, options);

        JobTestSupport.awaitEqual(sums, () -> read(sum.stateMap()), Duration.ofSeconds(90), sumJob);
        JobTestSupport.awaitEqual(maxima, () -> read(max.stateMap()), Duration.ofSeconds(90), maxJob);
        System.out.println(sums.size() + " windows: sums and maxima equal the oracle's; " + oracle.lateSequences().size()
                + " events too late for some of their windows");
        sumJob.cancel();
        maxJob.cancel();
    }

    @Test
    void when_theBuilderIsGivenWhatItCannotRun_then_itRefusesNamingIt() {
        assertThatThrownBy(() -> WindowedJob.builder(" ", EventType.CLICK.schema())).hasMessageContaining("name");
        assertThatThrownBy(() -> WindowedJob.builder("no-window", EventType.CLICK.schema()).aggregate(Aggregations.count()))
                .hasMessageContaining("choose its windows");
    }

    private Map<String, Long> read(final String map) {
        return member.<String, Long>getMap(map).entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
