package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.schema.json.RecordEncoder;
import io.streamgrid.jobs.schema.EventSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link LogPublisher} on a real Chronicle log: each sequence at most once, bad events rejected whole. */
class LogPublisherTest {
    /** No highest sequences known per partition (4 partitions). */
    private static final long[] NONE = new long[4];
    private static final EventSchema TRADE = EventSchema.builder("trade").stringKey("account", 8).eventTime("ts")
            .float64("price").build();

    @TempDir
    Path dir;

    @Test
    void when_aMemberDiedBeforeItsLedgerWasBackedUp_then_theScanFindsTheBatchAndNothingIsAppendedTwice() {
        try (LogPublisher publisher = new LogPublisher(SchemaLog.open(dir.resolve("trade"), TRADE, 4))) {
            final int slot = publisher.log().publisherSlot("gateway").slot();
            final long[] before = publisher.tails();
            final LogPublisher.Outcome first = publisher.append(slot, 0, NONE, before, sequences(1, 500), events(1, 500));
            assertThat(first.lastSequence()).isEqualTo(500);
            // The ledger the next member sees is the one before the batch: it must ask the log.
            final long[] found = publisher.scan(slot, before);
            assertThat(Arrays.stream(found).max().orElseThrow()).isEqualTo(500);
            final LogPublisher.Outcome retried = publisher.append(slot, PublishedSequence.settled(0, found), found, before,
                    sequences(1, 500), events(1, 500));
            assertThat(retried.statuses()).containsOnly(LogPublisher.DUPLICATE);
            publisher.append(slot, retried.lastSequence(), found, retried.tails(), sequences(501, 700), events(501, 700));

            assertEachOnce(publisher, slot, 700);
            // A scan from the last batch's tails finds it, from the first ledger's the highest overall.
            assertThat(Arrays.stream(publisher.scan(slot, retried.tails())).max().orElseThrow()).isEqualTo(700);
            assertThat(publisher.scan(slot + 1, before)).containsOnly(0L);
        }
    }

    /**
     * A writer that dies mid-batch over Kafka leaves each partition with a prefix of its records, not
     * the log with a prefix of the batch: the highest sequence found is not where the publisher's
     * events end. Here the batch reached partition 0 only.
     */
    @Test
    void when_aBatchReachedOnlyOnePartition_then_itsRetryAppendsTheOthersAndNothingTwice() {
        try (LogPublisher publisher = new LogPublisher(SchemaLog.open(dir.resolve("trade"), TRADE, 4))) {
            final int slot = publisher.log().publisherSlot("gateway").slot();
            final long[] before = publisher.tails();
            final long[] inPartition0 = Arrays.stream(sequences(1, 500)).filter(s -> partitionOf(s, 4) == 0).toArray();
            publisher.append(slot, 0, NONE, before, inPartition0, events(inPartition0));
            final long[] found = publisher.scan(slot, before);
            assertThat(found[0]).isEqualTo(inPartition0[inPartition0.length - 1]);
            assertThat(PublishedSequence.settled(0, found)).as("the other partitions hold none of it").isZero();

            publisher.append(slot, PublishedSequence.settled(0, found), found, before, sequences(1, 500), events(1, 500));
            assertEachOnce(publisher, slot, 500);
        }
    }

    @Test
    void when_eventsAreInvalid_then_eachIsRejectedNamingTheFieldAndTheOthersAreAppended() {
        try (LogPublisher publisher = new LogPublisher(SchemaLog.open(dir.resolve("trade"), TRADE, 2))) {
            final int slot = publisher.log().publisherSlot("gateway").slot();
            final String[] events = {
                    "{\"account\":\"A1\",\"ts\":1767225600000,\"price\":1.5}",
                    "{\"account\":\"A1\",\"price\":1.5}",
                    "{\"account\":\"A1\",\"ts\":1767225600000,\"price\":\"cheap\"}",
                    "{\"account\":\"ABCDEFGHIJ\",\"ts\":1767225600000,\"price\":1.5}",
                    "{\"account\":\"A1\",\"ts\":1767225600000,\"price\":1.5,\"qty\":3}",
                    "{\"account\":\"A1\",\"ts\":1767225600000,\"price\":1.5,\"seq\":3}",
                    "not json",
                    "{\"account\":\"A2\",\"ts\":\"2026-01-01T00:00:01Z\",\"price\":2}"};
            final LogPublisher.Outcome outcome = publisher.append(slot, 0, new long[2], publisher.tails(), sequences(1, events.length),
                    EventTexts.of(events));
            assertThat(outcome.statuses()).containsExactly(LogPublisher.APPENDED, LogPublisher.REJECTED, LogPublisher.REJECTED,
                    LogPublisher.REJECTED, LogPublisher.REJECTED, LogPublisher.REJECTED, LogPublisher.REJECTED, LogPublisher.APPENDED);
            assertThat(outcome.reasons()[1]).contains("missing field 'ts'");
            assertThat(outcome.reasons()[2]).contains("'price' must be a finite number, found cheap");
            assertThat(outcome.reasons()[3]).contains("account", "at most");
            assertThat(outcome.reasons()[4]).contains("unknown field 'qty'");
            assertThat(outcome.reasons()[5]).contains("'seq'", "numbered by its publisher");
            assertThat(outcome.reasons()[6]).isNotBlank();
            assertThat(PublishedRecords.counts(publisher.log(), slot)).containsOnlyKeys(1L, 8L);
            // A retry of the same batch: the valid ones are duplicates, the invalid ones rejected again, nothing appended.
            final LogPublisher.Outcome retried = publisher.append(slot, outcome.lastSequence(), new long[2], outcome.tails(),
                    sequences(1, events.length), EventTexts.of(events));
            assertThat(retried.statuses()[0]).isEqualTo(LogPublisher.DUPLICATE);
            assertThat(retried.statuses()[1]).isEqualTo(LogPublisher.REJECTED);
            assertThat(PublishedRecords.counts(publisher.log(), slot)).containsOnlyKeys(1L, 8L).containsValues(1);
        }
    }

    @Test
    void when_publishersClaimSlots_then_eachKeepsItsOwnAcrossReopening() {
        final int gateway;
        final int other;
        try (SchemaLog log = SchemaLog.open(dir.resolve("trade"), TRADE, 2)) {
            final EventLog.PublisherSlot claimed = log.publisherSlot("gateway");
            assertThat(claimed.isNew()).isTrue();
            gateway = claimed.slot();
            other = log.publisherSlot("other").slot();
            assertThat(other).isNotEqualTo(gateway);
            assertThat(gateway).isBetween(PublishedSequence.FIRST_SLOT, PublishedSequence.FIRST_SLOT + PublishedSequence.SLOTS - 1);
        }
        try (SchemaLog log = SchemaLog.openExisting(dir.resolve("trade"), TRADE)) {
            assertThat(log.publisherSlot("gateway")).isEqualTo(new EventLog.PublisherSlot(gateway, false));
            assertThat(log.publisherSlot("other")).isEqualTo(new EventLog.PublisherSlot(other, false));
        }
    }

    @Test
    void when_batchesArriveOnDifferentThreads_then_eachIsAppended() throws Exception {
        // A member appends a publisher's batches on whichever offload thread Hazelcast picks, and those threads live on;
        // Chronicle's appender refuses a second live thread.
        final ExecutorService first = Executors.newSingleThreadExecutor();
        final ExecutorService second = Executors.newSingleThreadExecutor();
        try (LogPublisher publisher = new LogPublisher(SchemaLog.open(dir.resolve("trade"), TRADE, 2))) {
            final int slot = publisher.log().publisherSlot("gateway").slot();
            LogPublisher.Outcome outcome = new LogPublisher.Outcome(new byte[0], new String[0], 0, publisher.tails());
            for (int batch = 0; batch < 4; batch++) {
                final LogPublisher.Outcome previous = outcome;
                final long from = previous.lastSequence() + 1;
                outcome = (batch % 2 == 0 ? first : second).submit(() -> publisher.append(slot, previous.lastSequence(),
                        new long[2], previous.tails(), sequences(from, from + 99), events(from, from + 99))).get(1, TimeUnit.MINUTES);
                assertThat(outcome.statuses()).containsOnly(LogPublisher.APPENDED);
            }
            assertThat(PublishedRecords.counts(publisher.log(), slot)).hasSize(400).doesNotContainValue(2);
        } finally {
            first.shutdownNow();
            second.shutdownNow();
        }
    }

    /** Sequences 1..{@code expected} of {@code slot} are each in the log once (the oracle: the sequences published). */
    private static void assertEachOnce(final LogPublisher publisher, final int slot, final long expected) {
        final Map<Long, Integer> counts = PublishedRecords.counts(publisher.log(), slot);
        final long duplicated = counts.values().stream().filter(c -> c > 1).count();
        final long lost = java.util.stream.LongStream.rangeClosed(1, expected).filter(s -> !counts.containsKey(s)).count();
        System.out.println(expected + " expected, " + counts.size() + " found, " + lost + " lost, " + duplicated + " duplicated");
        assertThat(lost).isZero();
        assertThat(duplicated).isZero();
        assertThat(counts).hasSize((int) expected);
    }

    private static long[] sequences(final long first, final long last) {
        final long[] sequences = new long[(int) (last - first + 1)];
        Arrays.setAll(sequences, i -> first + i);
        return sequences;
    }

    private static EventTexts events(final long first, final long last) {
        return events(sequences(first, last));
    }

    private static EventTexts events(final long[] sequences) {
        return EventTexts.of(Arrays.stream(sequences).mapToObj(LogPublisherTest::event).toArray(String[]::new));
    }

    private static String event(final long sequence) {
        return "{\"account\":\"A" + (sequence % 37) + "\",\"ts\":" + (1_767_225_600_000L + sequence) + ",\"price\":" + sequence / 10.0 + "}";
    }

    private static int partitionOf(final long sequence, final int partitions) {
        return KeyPartitions.partitionOf(new RecordEncoder(TRADE).encode(FlatJson.parse(event(sequence)), sequence), partitions);
    }
}
