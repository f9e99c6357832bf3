package io.streamgrid.jobs.ingest;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where the checkpoints of each job read the logs: what a log's retention must keep
 * ({@link LogRetention}). One entry per job, log and partition in the map {@value #MAP}: the index
 * of the last record handled before the job's checkpoint before last, and before its last one —
 * a restart resumes from the last, and {@code job submit --from-checkpoint} may pick the one
 * before. {@link PartitionReader#START} means "from the beginning": a job that has not completed
 * two checkpoints since it started reading holds the whole log.
 *
 * <p>The reading processors write it: {@link Recorder#register} when they start (an entry that is
 * there already stays), {@link Recorder#capture} when a snapshot takes their positions and
 * {@link Recorder#committed} when Jet reports it complete. Writes are asynchronous entry
 * processors, so a processor never waits on them; a write lost with a member only makes the
 * retention keep more. The map lives in memory: after a restart of the whole cluster the entries
 * start again from "the beginning" until the jobs have checkpointed twice.
 */
public final class LogPositions {
    /** The map of positions: key {@link #key}, value {@code long[] {before last, last}}. */
    public static final String MAP = "streamgrid.log-positions";

    private LogPositions() {
    }

    /** The key of {@code job}'s position in {@code partition} of the log named {@code log} ({@link EventLog#name()}). */
    static String key(final long job, final String log, final int partition) {
        return job + "|" + partition + "|" + log;
    }

    /** How a Chronicle log is named in keys: its directory, absolute and normalized. */
    static String logKey(final Path logDir) {
        return logDir.toAbsolutePath().normalize().toString();
    }

    /** A key taken apart. */
    record Key(long job, int partition, String log) {
        static Key parse(final String key) {
            final int first = key.indexOf('|');
            final int second = key.indexOf('|', first + 1);
            return new Key(Long.parseLong(key.substring(0, first)), Integer.parseInt(key.substring(first + 1, second)),
                    key.substring(second + 1));
        }
    }

    /** One processor's recorder of the positions of the partitions it reads. Not thread-safe: the processor's thread. */
    public static final class Recorder {
        private final IMap<String, long[]> map;
        private final long job;
        private final List<String> capturedKeys = new ArrayList<>();
        private final List<Long> capturedIndexes = new ArrayList<>();

        public Recorder(final HazelcastInstance hazelcast, final long job) {
            this.map = hazelcast.getMap(MAP);
            this.job = job;
        }

        /** This processor reads {@code partition} of {@code log}: until its checkpoints say more, all of it. */
        public void register(final EventLog log, final int partition) {
            map.submitToKey(key(job, log.name(), partition), new Register());
        }

        /** A snapshot is taking this position: the last record handled in {@code partition} is {@code lastIndex}. */
        public void capture(final EventLog log, final int partition, final long lastIndex) {
            capturedKeys.add(key(job, log.name(), partition));
            capturedIndexes.add(lastIndex);
        }

        /** The snapshot of the positions captured since the last call completed ({@code success}) or not. */
        public void committed(final boolean success) {
            if (success) {
                for (int i = 0; i < capturedKeys.size(); i++) {
                    map.submitToKey(capturedKeys.get(i), new Advance(capturedIndexes.get(i)));
                }
            }
            capturedKeys.clear();
            capturedIndexes.clear();
        }
    }

    /** Sets "from the beginning" unless the entry exists. */
    static final class Register implements EntryProcessor<String, long[], Void> {
        @Override
        public Void process(final Map.Entry<String, long[]> entry) {
            if (entry.getValue() == null) {
                entry.setValue(new long[] {PartitionReader.START, PartitionReader.START});
            }
            return null;
        }
    }

    /** The last checkpoint becomes the one before, and {@code lastIndex} the last. */
    static final class Advance implements EntryProcessor<String, long[], Void> {
        private final long lastIndex;

        Advance(final long lastIndex) {
            this.lastIndex = lastIndex;
        }

        @Override
        public Void process(final Map.Entry<String, long[]> entry) {
            final long[] old = entry.getValue();
            entry.setValue(new long[] {old == null ? PartitionReader.START : old[1], lastIndex});
            return null;
        }
    }
}
