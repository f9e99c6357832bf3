package io.streamgrid.jobs.window;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowResult;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Windows keyed by a string against the brute-force oracle: the requests of the generator, keyed by
 * the source host's name ("host-<n>") instead of its number — sliding sums (the incremental engine),
 * sliding maxima (windows rebuilt from slices) and session counts, with events out of order and
 * late, and a job restored from a snapshot mid-stream (its keys' numbers read back with it).
 */
class StringKeyedWindowsTest extends EmbeddedMemberTest {
    static final EventSchema HOST_REQUEST = EventSchema.builder("host-request").stringKey("host", 24).eventTime("ts")
            .int64("destination").build();
    static final TypedField.LongField DESTINATION = HOST_REQUEST.longField("destination");
    private static final int PARTITIONS = 3;
    static final AtomicLong RESULTS = new AtomicLong();
    static final AtomicLong FAIL_AT = new AtomicLong();
    /** Results of the maximum job, which emits the same windows and corrections as the sum job and never fails. */
    static final AtomicLong MAX_RESULTS = new AtomicLong();

    static String host(final long key) {
        return "host-" + key;
    }

    /** A result function failing once, at result {@link #FAIL_AT}: the job is suspended and resumed from its snapshot. */
    static long failOnce(final long value) {
        final long failAt = FAIL_AT.get();
        if (RESULTS.incrementAndGet() == failAt && FAIL_AT.compareAndSet(failAt, 0)) {
            throw new IllegalStateException("failing once, on purpose, at window result " + failAt);
        }
        return value;
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void when_windowsAreKeyedByAString_then_everyWindowEqualsTheOracleAlsoAfterARestore() throws Exception {
        final long size = 60_000;
        final long slide = 10_000;
        final long gap = 20_000;
        final long disorder = 3_000;
        final long lateness = 30_000;
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 17, 20_000, 60).withRate(50)
                .withZipf(0.8).withDisorder(disorder, 0.03, 120_000);
        RESULTS.set(0);
        MAX_RESULTS.set(0);
        FAIL_AT.set(3_000);
        startMember();
        final TimePolicy time = TimePolicy.of(disorder, lateness);
        final WindowedJob<LongValue> sum = WindowedJob.builder("host-destination-sum", HOST_REQUEST).sliding(size, slide).time(time)
                .aggregate(Aggregations.sum(DESTINATION)).results(r -> failOnce(r.value().value()));
        final WindowedJob<LongValue> max = WindowedJob.builder("host-destination-max", HOST_REQUEST).sliding(size, slide).time(time)
                .aggregate(Aggregations.max(DESTINATION)).results(r -> {
                    MAX_RESULTS.incrementAndGet();
                    return r.value().value();
                });
        final WindowedJob<Counter> session = WindowedJob.builder("host-sessions", HOST_REQUEST).session(gap).time(time)
                .aggregate(Aggregations.count()).results(r -> r.value().value());
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        final List<WindowOracle.Event> events = new ArrayList<>();
        final Job sumJob;
        final Job maxJob;
        final Job sessionJob;
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, HOST_REQUEST.name()), HOST_REQUEST, PARTITIONS)) {
            sumJob = Jobs.submit(member.getJet(), sum, options);
            maxJob = Jobs.submit(member.getJet(), max, options);
            sessionJob = Jobs.submit(member.getJet(), session, options);
            final SchemaRecord copy = new SchemaRecord(HOST_REQUEST.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HOST_REQUEST.layout().length()]);
            final AtomicLong appended = new AtomicLong();
            new EventGenerator(spec).generate((SchemaRecord request) -> {
                copy.wrapForWrite(buffer, 0).sequence(request.sequence()).setString(0, host(request.keyLong()))
                        .setTimestamp(1, request.eventTime()).setLong(2, request.getLong(2));
                log.append(copy);
                events.add(new WindowOracle.Event(KeyPartitions.partitionOf(copy, PARTITIONS), request.keyLong(), request.eventTime(),
                        request.sequence(), request.getLong(2)));
                if (appended.incrementAndGet() % 500 == 0) {
                    LockSupport.parkNanos(50_000_000); // the jobs take snapshots while the stream comes
                }
            });
            log.appendEndOfStream();
        }
        final WindowOracle.Result sliding = WindowOracle.sliding(events, size, slide, disorder, lateness);
        final WindowOracle.Result sessions = WindowOracle.sessions(events, gap, disorder, lateness);
        assertThat(sliding.lateSequences()).as("the stream has events too late for some windows").isNotEmpty();
        final Map<String, Long> sums = new HashMap<>();
        final Map<String, Long> maxima = new HashMap<>();
        sliding.windows().forEach((id, accepted) -> {
            sums.put(WindowResult.stateKey(host(id.key()), id.start()), accepted.stream().mapToLong(e -> (Long) e.payload()).sum());
            maxima.put(WindowResult.stateKey(host(id.key()), id.start()), accepted.stream().mapToLong(e -> (Long) e.payload()).max()
                    .orElseThrow());
        });
        final Map<String, Long> counts = new HashMap<>();
        sessions.windows().forEach((id, accepted) -> counts.put(WindowResult.stateKey(host(id.key()), id.start()), (long) accepted.size()));

        await().atMost(Duration.ofMinutes(1)).until(() -> sumJob.getStatus() == JobStatus.SUSPENDED);
        sumJob.resume();
        JobTestSupport.awaitEqual(sums, () -> Map.copyOf(member.<String, Long>getMap(sum.stateMap())), Duration.ofSeconds(90), sumJob);
        JobTestSupport.awaitEqual(maxima, () -> Map.copyOf(member.<String, Long>getMap(max.stateMap())), Duration.ofSeconds(90), maxJob);
        JobTestSupport.awaitEqual(counts, () -> Map.copyOf(member.<String, Long>getMap(session.stateMap())), Duration.ofSeconds(90),
                sessionJob);
        System.out.println(sums.size() + " sliding windows and " + counts.size() + " sessions of string keys equal the oracle's; "
                + sliding.lateSequences().size() + " events too late for some windows; the sum job restored once after "
                + RESULTS.get() + " results (" + (RESULTS.get() - MAX_RESULTS.get()) + " made again)");
        assertThat(RESULTS.get() - MAX_RESULTS.get()).as("results made again: since a snapshot taken after the start")
                .isPositive().isLessThan(3_000);
        assertThat(member.getMap(sum.lateMap()).values()).as("late events name their string key")
                .allMatch(late -> ((io.streamgrid.jobs.pipeline.LateEvent) late).key().startsWith("host-"));
        sumJob.cancel();
        maxJob.cancel();
        sessionJob.cancel();
    }
}
