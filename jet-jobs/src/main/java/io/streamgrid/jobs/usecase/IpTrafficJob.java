package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@code ip-traffic}: requests per source IP per tumbling window (1 minute by default) into
 * {@code state.ip-traffic}; a baseline per IP (mean and deviation of its earlier on-time window
 * counts, Welford's method, kept in the job's state); an alert into {@code state.alerts} when an
 * on-time count is at least {@code alertFloor} and above {@code alertFactor} times the baseline mean,
 * once the IP has {@code baselineMinWindows} windows of history. Corrections by late data update the
 * window's count but neither the baseline nor the alerts. An IP's quiet minutes (no requests) are
 * not windows and do not lower its baseline. An IP's baseline is dropped once the partition's
 * watermark is {@code baselineExpiryMs} past the start of its last window (event time, so replays
 * drop the same), which bounds the state of a stream of ever-new IPs.
 */
public record IpTrafficJob(WindowPolicy policy, double alertFactor, long alertFloor, int baselineMinWindows,
                           long baselineExpiryMs) implements WindowedJob<Counter> {
    public static final String NAME = "ip-traffic";
    public static final String ALERTS_MAP = "state.alerts";
    private static final long serialVersionUID = 1L;

    public IpTrafficJob {
        if (!(policy.window() instanceof WindowDefinition.Sliding sliding) || !sliding.isTumbling()) {
            throw new IllegalArgumentException("ip-traffic needs tumbling windows, got " + policy.window());
        }
        if (alertFactor <= 1) {
            throw new IllegalArgumentException("alertFactor must be above 1, was " + alertFactor);
        }
        if (baselineExpiryMs < 1) {
            throw new IllegalArgumentException("baselineExpiryMs must be positive, was " + baselineExpiryMs);
        }
        if (alertFloor < 1 || baselineMinWindows < 1) {
            throw new IllegalArgumentException("alertFloor and baselineMinWindows must be positive, were "
                    + alertFloor + " and " + baselineMinWindows);
        }
    }


    /** Baselines that never expire. */
    public IpTrafficJob(final WindowPolicy policy, final double alertFactor, final long alertFloor, final int baselineMinWindows) {
        this(policy, alertFactor, alertFloor, baselineMinWindows, Long.MAX_VALUE);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> stateMaps() {
        return List.of(stateMap(), ALERTS_MAP);
    }

    @Override
    public EventSchema schema() {
        return EventType.REQUEST.schema();
    }

    @Override
    public WindowAggregation<Counter> aggregation() {
        return new Counter.Counting();
    }

    /** The state-map key of an IP's window. */
    public static String windowKey(final long ip, final long windowStart) {
        return BuiltInEvents.ipToString(ip) + "@" + windowStart;
    }

    /** Table of window counts: {@code ip_window_counts}, partitioned by IP, clustered by window start. */
    public static TableSpec windowCountsTable(final String keyspace) {
        return new TableSpec(keyspace, "ip_window_counts", List.of(
                new TableSpec.Column("ip", CqlType.TEXT), new TableSpec.Column("window_start", CqlType.BIGINT),
                new TableSpec.Column("window_end", CqlType.BIGINT), new TableSpec.Column("count", CqlType.BIGINT),
                new TableSpec.Column("update_sequence", CqlType.INT), new TableSpec.Column("corrected", CqlType.BOOLEAN)),
                List.of("ip"), List.of("window_start"));
    }

    /** Table of alerts: {@code traffic_alerts}, partitioned by IP, clustered by window start. */
    public static TableSpec alertsTable(final String keyspace) {
        return new TableSpec(keyspace, "traffic_alerts", List.of(
                new TableSpec.Column("ip", CqlType.TEXT), new TableSpec.Column("window_start", CqlType.BIGINT),
                new TableSpec.Column("window_end", CqlType.BIGINT), new TableSpec.Column("count", CqlType.BIGINT),
                new TableSpec.Column("baseline_mean", CqlType.DOUBLE), new TableSpec.Column("baseline_stddev", CqlType.DOUBLE)),
                List.of("ip"), List.of("window_start"));
    }

    /** Window counts and alerts also go, exactly-once, to Cassandra tables in {@code target}'s keyspace. */
    public static CassandraOutput cassandraOutput(final CassandraTarget target, final SinkOptions options) {
        return new CassandraOutput(target, List.of(
                new CassandraOutput.Binding("state." + NAME, windowCountsTable(target.keyspace()), value -> {
                    final IpWindowCount w = (IpWindowCount) value;
                    return new Object[] {w.ip(), w.windowStart(), w.windowEnd(), w.count(), w.updateSequence(), w.corrected()};
                }),
                new CassandraOutput.Binding(ALERTS_MAP, alertsTable(target.keyspace()), value -> {
                    final TrafficAlert a = (TrafficAlert) value;
                    return new Object[] {a.ip(), a.windowStart(), a.windowEnd(), a.count(), a.baselineMean(), a.baselineStdDev()};
                })), options);
    }

    /** Declared for {@code job submit ip-traffic --cassandra}: window counts and alerts, with the sink's default options. */
    @Override
    public Optional<CassandraOutput> cassandraOutput(final CassandraTarget target) {
        return Optional.of(cassandraOutput(target, SinkOptions.defaults()));
    }

    @Override
    public ResultHandler<Counter> newResultHandler() {
        return new Handler(this);
    }

    private static final class Baseline {
        long lastWindowStart;
        long windows;
        double mean;
        double sumOfSquares;

        void add(final long count) {
            windows++;
            final double delta = count - mean;
            mean += delta / windows;
            sumOfSquares += delta * (count - mean);
        }

        double stdDev() {
            return windows < 2 ? 0 : Math.sqrt(sumOfSquares / (windows - 1));
        }
    }

    static final class Handler implements ResultHandler<Counter> {
        private final IpTrafficJob job;
        private final Long2ObjectHashMap<Baseline> baselineByIp = new Long2ObjectHashMap<>();
        /** The watermark at which expired baselines are next looked for; a sweep every window at most. */
        private long nextSweep = Long.MIN_VALUE;

        Handler(final IpTrafficJob job) {
            this.job = job;
        }

        @Override
        public void onWindow(final long ip, final long start, final long end, final Counter value, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            final String key = windowKey(ip, start);
            out.put(job.stateMap(), key, new IpWindowCount(BuiltInEvents.ipToString(ip), start, end, value.value(),
                    updateSequence, afterWatermark));
            if (updateSequence != 1 || afterWatermark) {
                return;
            }
            Baseline baseline = baselineByIp.get(ip);
            if (baseline == null) {
                baseline = new Baseline();
                baselineByIp.put(ip, baseline);
            }
            baseline.lastWindowStart = start;
            if (baseline.windows >= job.baselineMinWindows() && value.value() >= job.alertFloor()
                    && value.value() > job.alertFactor() * baseline.mean) {
                out.put(ALERTS_MAP, key, new TrafficAlert(BuiltInEvents.ipToString(ip), start, end, value.value(),
                        baseline.mean, baseline.stdDev(), job.alertFactor()));
            }
            baseline.add(value.value());
        }

        @Override
        public void onWatermark(final long watermark, final StateWriter out) {
            if (watermark < nextSweep || job.baselineExpiryMs() == Long.MAX_VALUE) {
                return;
            }
            final long expiry = job.baselineExpiryMs();
            baselineByIp.values().removeIf(baseline -> watermark - baseline.lastWindowStart > expiry);
            final long window = ((WindowDefinition.Sliding) job.policy().window()).size();
            nextSweep = watermark > Long.MAX_VALUE - window ? Long.MAX_VALUE : watermark + window;
        }

        int baselines() {
            return baselineByIp.size();
        }

        @Override
        public void writeState(final DataOutput out) throws IOException {
            out.writeLong(nextSweep);
            out.writeInt(baselineByIp.size());
            final Long2ObjectHashMap<Baseline>.EntryIterator entries = baselineByIp.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                final Baseline baseline = entries.getValue();
                out.writeLong(entries.getLongKey());
                out.writeLong(baseline.lastWindowStart);
                out.writeLong(baseline.windows);
                out.writeDouble(baseline.mean);
                out.writeDouble(baseline.sumOfSquares);
            }
        }

        @Override
        public void readState(final DataInput in) throws IOException {
            baselineByIp.clear();
            nextSweep = in.readLong();
            final int count = in.readInt();
            for (int i = 0; i < count; i++) {
                final long ip = in.readLong();
                final Baseline baseline = new Baseline();
                baseline.lastWindowStart = in.readLong();
                baseline.windows = in.readLong();
                baseline.mean = in.readDouble();
                baseline.sumOfSquares = in.readDouble();
                baselineByIp.put(ip, baseline);
            }
        }
    }
}
