package io.streamgrid.sink.impl;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.hazelcast.function.FunctionEx;
import com.hazelcast.jet.JetException;
import com.hazelcast.jet.RestartableException;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.core.metrics.Metric;
import com.hazelcast.jet.core.metrics.Unit;
import com.hazelcast.jet.core.test.TestInbox;
import com.hazelcast.jet.core.test.TestOutbox;
import com.hazelcast.jet.core.test.TestProcessorContext;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sink's protocol, step by step, against a recording store (no Cassandra): what reaches the
 * table, when, and with which timestamp. Pins the order prepare → snapshot complete → commit, that a
 * failed snapshot commits nothing, that a restore commits the restored transactions again, that
 * writes are coalesced by key in every mode, that removals become deletes, and what a permanent or a
 * transient error does.
 */
class CassandraSinkProtocolTest {
    /** Snapshot entries of 256 bytes: an epoch of a few hundred rows is cut into many. */
    private static final int ENTRY_BYTES = 256;
    private static final long BASE = 1_000_000_000L;
    private static final TableSpec TABLE = new TableSpec("ks", "t", List.of(new TableSpec.Column("id", CqlType.BIGINT),
            new TableSpec.Column("label", CqlType.TEXT), new TableSpec.Column("amount", CqlType.DOUBLE)),
            List.of("id"), List.of());

    /** An item: a row to upsert, or (label null) the key of a row to delete. */
    private record Item(long id, String label, double amount) {
    }

    /** Records what the processor asked of the table; fails writes as told. */
    private static final class RecordingStore implements RowStore {
        final List<String> log = new ArrayList<>();
        Function<List<RowWrite>, Throwable> failure = rows -> null;
        /** The cluster's timestamp ledger, when a test follows it (as the Cassandra store does). */
        ConcurrentMap<String, Long> ledger;

        @Override
        public CompletionStage<?> write(final List<RowWrite> partition, final long timestampMicros) {
            final Throwable error = failure.apply(partition);
            if (error != null) {
                log.add("failed " + describe(partition));
                return CompletableFuture.failedFuture(error);
            }
            log.add("write@" + timestampMicros + " " + describe(partition));
            return CompletableFuture.completedFuture(null);
        }

        private static String describe(final List<RowWrite> rows) {
            return rows.stream().map(r -> (r.delete() ? "delete" : "upsert") + Arrays.toString(r.values())).toList().toString();
        }

        @Override
        public void reserve(final long timestampMicros) {
            log.add("reserve@" + timestampMicros);
            if (ledger != null) {
                TimestampLedger.reserve(ledger, TABLE.qualifiedName(), timestampMicros);
            }
        }

        @Override
        public String describe() {
            return "INSERT/DELETE ks.t";
        }

        @Override
        public void close() {
        }
    }

    /** Jet's metrics need a real job's thread; here they are plain values. */
    private record LocalMetric(String name) implements Metric {
        @Override
        public Unit unit() {
            return Unit.COUNT;
        }

        @Override
        public void increment() {
        }

        @Override
        public void increment(final long delta) {
        }

        @Override
        public void decrement() {
        }

        @Override
        public void decrement(final long delta) {
        }

        @Override
        public void set(final long value) {
        }
    }

    private final RecordingStore store = new RecordingStore();
    private TestOutbox outbox;

    private CassandraSinkP<Item> processor(final ProcessingGuarantee guarantee) throws Exception {
        return processor(guarantee, BASE);
    }

    /** {@code base}: the execution's timestamp base (a later execution has a higher one). */
    private CassandraSinkP<Item> processor(final ProcessingGuarantee guarantee, final long base) throws Exception {
        return processor(guarantee, base, context -> store);
    }

    private CassandraSinkP<Item> processor(final ProcessingGuarantee guarantee, final long base,
                                           final FunctionEx<Processor.Context, RowStore> storeFactory) throws Exception {
        final CassandraSinkP<Item> p = new CassandraSinkP<>(TABLE,
                item -> item.label() == null ? null : new Object[] {item.id(), item.label(), item.amount()},
                item -> item.label() == null ? new Object[] {item.id()} : null,
                SinkOptions.defaults().withMaxInFlight(8).withSnapshotEntryBytes(ENTRY_BYTES), base, storeFactory, LocalMetric::new);
        outbox = new TestOutbox(new int[] {16}, 16);
        p.init(outbox, new TestProcessorContext().setProcessingGuarantee(guarantee)
                .setJobConfig(new JobConfig().setName("job-x").setSuspendOnFailure(true)));
        return p;
    }

    private static void process(final CassandraSinkP<Item> p, final Item... items) {
        final TestInbox inbox = new TestInbox();
        inbox.addAll(List.of(items));
        p.process(0, inbox);
        assertThat(inbox).as("the inbox is drained").isEmpty();
    }

    private List<Map.Entry<Object, Object>> prepare(final CassandraSinkP<Item> p) {
        assertThat(p.snapshotCommitPrepare()).isTrue();
        final List<Map.Entry<Object, Object>> snapshot = new ArrayList<>();
        outbox.drainSnapshotQueueAndReset(snapshot, false);
        return snapshot;
    }

    @Test
    void when_snapshotCompletes_then_epochIsCommittedOnlyAfterIt() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);

        process(p, new Item(1, "a", 1), new Item(2, "b", 2));
        assertThat(store.log).as("nothing before the snapshot").isEmpty();
        final List<Map.Entry<Object, Object>> snapshot = prepare(p);
        assertThat(snapshot).as("the prepared transaction is in the snapshot").hasSize(1);
        assertThat(store.log).as("nothing at prepare").isEmpty();

        assertThat(p.snapshotCommitFinish(true)).isTrue();
        assertThat(store.log).containsExactly("reserve@" + (BASE + 1_000),
                "write@" + (BASE + 1_000) + " [upsert[1, a, 1.0]]", "write@" + (BASE + 1_000) + " [upsert[2, b, 2.0]]");
    }

    @Test
    void when_snapshotFails_then_nothingIsCommittedAndTheJobRestarts() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(p, new Item(1, "a", 1));
        prepare(p);

        assertThatThrownBy(() -> p.snapshotCommitFinish(false)).isInstanceOf(RestartableException.class)
                .hasMessageContaining("is aborted");
        assertThat(store.log).isEmpty();
    }

    @Test
    void when_restoredFromSnapshot_then_itsTransactionsAreCommittedAgainAndEpochsContinue() throws Exception {
        final CassandraSinkP<Item> first = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(first, new Item(1, "a", 1));
        final List<Map.Entry<Object, Object>> snapshot = prepare(first);
        // The member dies here: the snapshot completed, the commit never ran.

        final CassandraSinkP<Item> restored = processor(ProcessingGuarantee.EXACTLY_ONCE);
        final TestInbox inbox = new TestInbox();
        inbox.addAll(snapshot);
        restored.restoreFromSnapshot(inbox);
        assertThat(store.log).as("nothing before the restore finished").isEmpty();
        assertThat(restored.finishSnapshotRestore()).isTrue();
        assertThat(store.log).containsExactly("reserve@" + (BASE + 1_000), "write@" + (BASE + 1_000) + " [upsert[1, a, 1.0]]");

        store.log.clear();
        process(restored, new Item(1, "z", 9));
        prepare(restored);
        restored.snapshotCommitFinish(true);
        assertThat(store.log).as("the next epoch writes a step above the base, which is a step above the restored epoch")
                .containsExactly("reserve@" + (BASE + 3_000), "write@" + (BASE + 3_000) + " [upsert[1, z, 9.0]]");
    }

    /**
     * Design of this test: a job restarts 40 times and runs 100 epochs, 10 ms apart, between
     * restarts (a restart takes 0.5 s); each execution takes its base from one ledger, as the meta
     * supplier does, and every epoch updates rows that exist. Then the whole cluster restarts: the
     * ledger is gone and the member that takes the base has a clock 30 s behind; the restored
     * execution updates and deletes existing rows. A last-write-wins table (Cassandra keeps the
     * highest timestamp per cell) must hold every last write, and the timestamps' lead over the
     * clock must not grow with the restarts. On the earlier code each restart added the whole epoch
     * count to the base again: the lead grew to about a minute and the writes after the
     * whole-cluster restart were all below the cells already written.
     */
    @Test
    void when_aJobRestartsManyTimesAndThenTheWholeCluster_then_timestampsStayNearTheClockAndEveryUpdateAndDeleteLands()
            throws Exception {
        store.ledger = new ConcurrentHashMap<>();
        long clockMicros = 1_700_000_000_000_000L;
        final Map<Long, String> expected = new HashMap<>();
        List<Map.Entry<Object, Object>> snapshot = List.of();
        final List<Long> leadAtEachRestartMicros = new ArrayList<>();
        for (int restart = 0; restart < 40; restart++) {
            clockMicros += 500_000;
            final CassandraSinkP<Item> execution = processor(ProcessingGuarantee.EXACTLY_ONCE,
                    TimestampLedger.newBase(store.ledger, TABLE.qualifiedName(), clockMicros));
            restore(execution, snapshot);
            long lead = Long.MIN_VALUE;
            for (int e = 0; e < 100; e++) {
                clockMicros += 10_000;
                final long id = e % 5;
                final String label = "r" + restart + "e" + e;
                process(execution, new Item(id, label, e));
                expected.put(id, label);
                snapshot = prepare(execution);
                execution.snapshotCommitFinish(true);
                lead = Math.max(lead, lastWriteTimestamp() - clockMicros);
            }
            leadAtEachRestartMicros.add(lead);
        }
        System.out.println("write timestamps' lead over the clock in executions 1, 10, 40: " + leadAtEachRestartMicros.get(0)
                + ", " + leadAtEachRestartMicros.get(9) + ", " + leadAtEachRestartMicros.get(39) + " µs");
        assertThat(leadAtEachRestartMicros).as("lead over the clock per execution, µs").allMatch(lead -> lead <= 2_000);

        // The whole cluster restarts: the ledger is lost, and the member taking the base is 30 s behind.
        store.ledger = new ConcurrentHashMap<>();
        final CassandraSinkP<Item> afterRestart = processor(ProcessingGuarantee.EXACTLY_ONCE,
                TimestampLedger.newBase(store.ledger, TABLE.qualifiedName(), clockMicros - 30_000_000));
        restore(afterRestart, snapshot);
        for (long id = 0; id < 5; id++) {
            final boolean delete = id == 2;
            process(afterRestart, new Item(id, delete ? null : "after", id));
            expected.put(id, delete ? null : "after");
        }
        prepare(afterRestart);
        afterRestart.snapshotCommitFinish(true);

        assertThat(lastWriteWins()).as("what a last-write-wins table holds").isEqualTo(expected);
    }

    private void restore(final CassandraSinkP<Item> p, final List<Map.Entry<Object, Object>> snapshot) {
        final TestInbox inbox = new TestInbox();
        inbox.addAll(snapshot);
        p.restoreFromSnapshot(inbox);
        assertThat(p.finishSnapshotRestore()).isTrue();
    }

    private long lastWriteTimestamp() {
        for (int i = store.log.size() - 1; i >= 0; i--) {
            final String line = store.log.get(i);
            if (line.startsWith("write@")) {
                return Long.parseLong(line.substring("write@".length(), line.indexOf(' ')));
            }
        }
        throw new AssertionError("no write yet");
    }

    /** Per id, the label of its write with the highest timestamp (null: deleted), as Cassandra would keep it. */
    private Map<Long, String> lastWriteWins() {
        final Map<Long, Long> bestTimestamp = new HashMap<>();
        final Map<Long, String> table = new HashMap<>();
        for (final String line : store.log) {
            if (!line.startsWith("write@")) {
                continue;
            }
            final long timestamp = Long.parseLong(line.substring("write@".length(), line.indexOf(' ')));
            final boolean delete = line.contains("[delete[");
            final String[] values = line.substring(line.indexOf("[", line.indexOf(' ') + 2) + 1, line.indexOf(']')).split(", ");
            final long id = Long.parseLong(values[0]);
            if (timestamp > bestTimestamp.getOrDefault(id, Long.MIN_VALUE)) {
                bestTimestamp.put(id, timestamp);
                table.put(id, delete ? null : values[1]);
            }
        }
        return table;
    }

    /**
     * Design of this test: epochs 1 and 2 commit a row's old and new value; then an execution with
     * a later timestamp base restores the snapshot of epoch 1 (older than the committed epoch 2 —
     * what a reader saw as "versions went back" in CassandraExactlyOnceTest's restart run). Its
     * recommit must not overwrite the newer row: Cassandra keeps, per cell, the write with the
     * highest timestamp, so the recommit has to carry epoch 1's own timestamp, not a new one.
     */
    @Test
    void when_restoredFromASnapshotOlderThanACommittedEpoch_then_theRecommitDoesNotOverwriteTheNewerRow() throws Exception {
        final CassandraSinkP<Item> first = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(first, new Item(1, "old", 1));
        final List<Map.Entry<Object, Object>> epochOne = prepare(first);
        first.snapshotCommitFinish(true);
        process(first, new Item(1, "new", 2));
        prepare(first);
        first.snapshotCommitFinish(true);

        final CassandraSinkP<Item> later = processor(ProcessingGuarantee.EXACTLY_ONCE, BASE + 60_000_000);
        final TestInbox inbox = new TestInbox();
        inbox.addAll(epochOne);
        later.restoreFromSnapshot(inbox);
        assertThat(later.finishSnapshotRestore()).isTrue();

        assertThat(winnerOf(1)).as("the row Cassandra keeps (highest write timestamp)").isEqualTo("[upsert[1, new, 2.0]]");
        process(later, new Item(1, "newest", 3));
        prepare(later);
        later.snapshotCommitFinish(true);
        assertThat(winnerOf(1)).as("the next epoch still writes above everything").isEqualTo("[upsert[1, newest, 3.0]]");
    }

    /** What a last-write-wins table holds for {@code id} after the recorded writes: the write with the highest timestamp. */
    private String winnerOf(final long id) {
        long best = Long.MIN_VALUE;
        String winner = null;
        for (final String line : store.log) {
            if (line.startsWith("write@") && line.contains("[upsert[" + id + ",")) {
                final long timestamp = Long.parseLong(line.substring("write@".length(), line.indexOf(' ')));
                if (timestamp >= best) {
                    best = timestamp;
                    winner = line.substring(line.indexOf(' ') + 1);
                }
            }
        }
        return winner;
    }

    @Test
    void when_sameKeyTwiceInOneInbox_then_onlyTheLastWriteGoesOut_inEveryMode() throws Exception {
        for (final ProcessingGuarantee guarantee : ProcessingGuarantee.values()) {
            store.log.clear();
            final CassandraSinkP<Item> p = processor(guarantee);
            process(p, new Item(7, "b", 5), new Item(7, "a", 3));
            if (guarantee == ProcessingGuarantee.EXACTLY_ONCE) {
                prepare(p);
                p.snapshotCommitFinish(true);
            }
            assertThat(store.log).as(guarantee.toString()).filteredOn(line -> line.startsWith("write"))
                    .singleElement().asString().endsWith(" [upsert[7, a, 3.0]]");
        }
    }

    /** Epochs take the writes of an epoch committed before them, cleared: nothing of it may go out again. */
    @Test
    void when_epochsFollowOneAnother_then_eachCommitsOnlyItsOwnRows() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);
        for (int epoch = 1; epoch <= 4; epoch++) {
            store.log.clear();
            process(p, new Item(epoch, "e" + epoch, epoch), new Item(10 + epoch, "f" + epoch, epoch));
            prepare(p);
            p.snapshotCommitFinish(true);
            final long timestamp = BASE + epoch * 1_000L;
            assertThat(store.log).as("epoch " + epoch).first().isEqualTo("reserve@" + timestamp);
            assertThat(store.log.subList(1, store.log.size())).as("epoch " + epoch + ", partitions in any order").containsExactlyInAnyOrder(
                    "write@" + timestamp + " [upsert[" + epoch + ", e" + epoch + ", " + (double) epoch + "]]",
                    "write@" + timestamp + " [upsert[" + (10 + epoch) + ", f" + epoch + ", " + (double) epoch + "]]");
        }
    }

    /**
     * Design of this test: an epoch of 500 rows (about 15 KB) against snapshot entries of 256 bytes
     * (the sink's option {@code snapshotEntryBytes}; in production the member's setting, and the
     * bound keeps a durable snapshot's entries within what Cassandra takes in one write). The
     * transaction must reach the snapshot as many entries, none over the bound — also when the
     * outbox fills between them — and a restore from them must commit every row once, with the
     * epoch's timestamp; a restore that lacks one entry must commit nothing and say which
     * transaction is short.
     */
    @Test
    void when_epochIsLargerThanASnapshotEntry_then_itIsSavedInBoundedPartsAndARestoreCommitsEveryRowOnce() throws Exception {
        final CassandraSinkP<Item> first = processor(ProcessingGuarantee.EXACTLY_ONCE);
        final List<String> expected = new ArrayList<>();
        for (int id = 0; id < 500; id++) {
            process(first, new Item(id, "row-" + id, id));
            expected.add("write@" + (BASE + 1_000) + " [upsert[" + id + ", row-" + id + ", " + (double) id + "]]");
        }
        final List<Map.Entry<Object, Object>> snapshot = new ArrayList<>();
        int prepareCalls = 1;
        for (; !first.snapshotCommitPrepare(); prepareCalls++) {
            outbox.drainSnapshotQueueAndReset(snapshot, false); // the outbox takes 16 entries at a time
        }
        outbox.drainSnapshotQueueAndReset(snapshot, false);
        assertThat(prepareCalls).as("prepare calls until the outbox took every part").isGreaterThan(1);
        assertThat(snapshot).hasSizeGreaterThan(16)
                .allSatisfy(entry -> assertThat(((byte[]) entry.getValue()).length).isLessThanOrEqualTo(ENTRY_BYTES));
        assertThat(snapshot.stream().map(Map.Entry::getKey).distinct()).as("one key per part").hasSameSizeAs(snapshot);
        assertThat(store.log).as("nothing at prepare").isEmpty();
        // The member dies here: the snapshot completed, the commit never ran.

        final CassandraSinkP<Item> restored = processor(ProcessingGuarantee.EXACTLY_ONCE);
        final TestInbox inbox = new TestInbox();
        final List<Map.Entry<Object, Object>> shuffled = new ArrayList<>(snapshot);
        Collections.shuffle(shuffled, new Random(5));
        inbox.addAll(shuffled);
        restored.restoreFromSnapshot(inbox);
        assertThat(restored.finishSnapshotRestore()).isTrue();
        assertThat(store.log).first().isEqualTo("reserve@" + (BASE + 1_000));
        assertThat(store.log.subList(1, store.log.size())).containsExactlyInAnyOrderElementsOf(expected);

        store.log.clear();
        final CassandraSinkP<Item> short1 = processor(ProcessingGuarantee.EXACTLY_ONCE);
        final TestInbox lacking = new TestInbox();
        lacking.addAll(shuffled.subList(1, shuffled.size()));
        short1.restoreFromSnapshot(lacking);
        assertThatThrownBy(short1::finishSnapshotRestore).hasMessageContaining("of its " + snapshot.size() + " parts")
                .hasMessageContaining("none of its rows are committed");
        assertThat(store.log).isEmpty();
    }

    @Test
    void when_rowRemoved_then_itIsDeletedWithTheEpochTimestamp() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(p, new Item(1, "a", 1));
        prepare(p);
        p.snapshotCommitFinish(true);
        store.log.clear();

        process(p, new Item(1, null, 0));
        prepare(p);
        p.snapshotCommitFinish(true);

        assertThat(store.log).containsExactly("reserve@" + (BASE + 2_000), "write@" + (BASE + 2_000) + " [delete[1]]");
    }

    @Test
    void when_decidedTransactionFailsPermanently_then_errorKeepsItForResumeAndNamesIt() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);
        store.failure = rows -> new InvalidQueryException(null, "unconfigured table t");
        process(p, new Item(1, "a", 1));
        prepare(p);

        assertThatThrownBy(() -> p.snapshotCommitFinish(true)).isInstanceOf(JetException.class)
                .hasMessageContaining("transaction ")
                .hasMessageContaining("of ks.t is decided but not committed: its rows are kept in the suspended job's snapshot")
                .hasMessageContaining("unconfigured table t")
                .hasMessageContaining("resume with `streamgrid job resume job-x`");
    }

    @Test
    void when_writeTimesOut_then_itIsRetriedUntilItPasses() throws Exception {
        final CassandraSinkP<Item> p = processor(ProcessingGuarantee.EXACTLY_ONCE);
        final int[] attempts = {0};
        store.failure = rows -> ++attempts[0] <= 2
                ? new WriteTimeoutException(null, ConsistencyLevel.ONE, 0, 1, DefaultWriteType.BATCH) : null;
        process(p, new Item(1, "a", 1));
        prepare(p);

        assertThat(p.snapshotCommitFinish(true)).isTrue();
        assertThat(store.log).containsExactly("reserve@" + (BASE + 1_000), "failed [upsert[1, a, 1.0]]",
                "failed [upsert[1, a, 1.0]]", "write@" + (BASE + 1_000) + " [upsert[1, a, 1.0]]");
    }

    /**
     * A new execution can start while Cassandra is down or restarting (CassandraExactlyOnceTest's
     * stopped-Cassandra run once suspended the job this way: the processor's start failed to
     * prepare its statements). Opening the table is retried like a write; the restored, decided
     * transaction is committed once Cassandra answers.
     */
    @Test
    void when_cassandraUnreachableWhileTheExecutionStarts_then_theTableIsOpenedOnceItAnswers() throws Exception {
        final CassandraSinkP<Item> first = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(first, new Item(1, "a", 1));
        final List<Map.Entry<Object, Object>> snapshot = prepare(first);
        store.log.clear();

        final int[] opens = {0};
        final CassandraSinkP<Item> restarted = processor(ProcessingGuarantee.EXACTLY_ONCE, BASE + 60_000_000, context -> {
            if (++opens[0] <= 2) {
                throw new NoNodeAvailableException();
            }
            return store;
        });
        final TestInbox inbox = new TestInbox();
        inbox.addAll(snapshot);
        restarted.restoreFromSnapshot(inbox);
        assertThat(restarted.finishSnapshotRestore()).isTrue();

        assertThat(opens[0]).as("attempts to open the table").isEqualTo(3);
        assertThat(store.log).containsExactly("reserve@" + (BASE + 1_000), "write@" + (BASE + 1_000) + " [upsert[1, a, 1.0]]");
    }

    @Test
    void when_tableCannotBeOpenedPermanently_then_theDecidedTransactionIsKeptAndTheErrorNamesIt() throws Exception {
        final CassandraSinkP<Item> first = processor(ProcessingGuarantee.EXACTLY_ONCE);
        process(first, new Item(1, "a", 1));
        final List<Map.Entry<Object, Object>> snapshot = prepare(first);

        final CassandraSinkP<Item> restarted = processor(ProcessingGuarantee.EXACTLY_ONCE, BASE + 60_000_000, context -> {
            throw new InvalidQueryException(null, "unconfigured table t");
        });
        final TestInbox inbox = new TestInbox();
        inbox.addAll(snapshot);
        restarted.restoreFromSnapshot(inbox);
        assertThatThrownBy(restarted::finishSnapshotRestore).isInstanceOf(JetException.class)
                .hasMessageContaining("is decided but not committed")
                .hasMessageContaining("unconfigured table t");
    }

    @Test
    void when_exactlyOnceJobWouldNotSuspendOnFailure_then_processorRefusesToStart() {
        final CassandraSinkP<Item> p = new CassandraSinkP<>(TABLE, item -> null, null, SinkOptions.defaults().withSnapshotEntryBytes(ENTRY_BYTES), BASE, context -> store, LocalMetric::new);
        assertThatThrownBy(() -> p.init(new TestOutbox(1), new TestProcessorContext()
                .setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE).setJobConfig(new JobConfig())))
                .hasMessageContaining("setSuspendOnFailure(true)");
    }
}
