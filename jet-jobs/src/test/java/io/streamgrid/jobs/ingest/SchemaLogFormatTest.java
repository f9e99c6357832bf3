package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The on-disk rules every schema log keeps: partitioning, metadata, concurrent creation, resuming, raw records. */
class SchemaLogFormatTest {
    private static final EventSchema REQUEST = EventType.REQUEST.schema();

    @TempDir
    Path dir;

    @Test
    void when_eventsAppended_then_eachPartitionReadsItsKeysInAppendOrder() {
        final List<long[]> appended = new ArrayList<>();
        try (SchemaLog log = SchemaLog.open(dir, REQUEST, 3)) {
            new EventGenerator(GeneratorSpec.of(EventType.REQUEST, 1, 3_000, 50)).generate(r -> {
                log.append(r);
                appended.add(new long[] {log.partitionOf(r.keyLong()), r.sequence()});
            });
            for (int p = 0; p < 3; p++) {
                final int partition = p;
                final List<Long> expected = appended.stream().filter(a -> a[0] == partition).map(a -> a[1]).toList();
                assertThat(readSequences(log, p, PartitionReader.START)).isEqualTo(expected);
            }
        }
    }

    @Test
    void when_logHasAnotherLayoutVersion_then_openRefusesNamingBoth() throws Exception {
        SchemaLog.open(dir, REQUEST, 2).close();
        final Path meta = dir.resolve(SchemaLog.META_FILE);
        Files.writeString(meta, Files.readString(meta).replace("layout-version=" + SchemaLog.LAYOUT_VERSION, "layout-version=99"));

        assertThatThrownBy(() -> SchemaLog.open(dir, REQUEST, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has record layout version 99, this build reads layout version " + SchemaLog.LAYOUT_VERSION);
        assertThatThrownBy(() -> SchemaLog.openExisting(dir, REQUEST)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layout version 99");
    }

    /**
     * Design of this test: for each of many fresh directories, several threads released together
     * open the same new log, half asking for 2 partitions and half for 3. Exactly one count must win
     * per directory: every opener that asked for it succeeds, every other is refused naming both
     * counts, and no opener ever sees a half-written metadata file.
     */
    @Test
    void when_processesCreateTheSameLogAtOnce_then_oneLayoutWinsAndOthersAreRefused() throws Exception {
        final int openers = 4;
        final ExecutorService pool = Executors.newFixedThreadPool(openers);
        try {
            for (int round = 0; round < 25; round++) {
                final Path logDir = dir.resolve("race-" + round);
                final CyclicBarrier start = new CyclicBarrier(openers);
                final List<Future<Integer>> results = new ArrayList<>();
                for (int i = 0; i < openers; i++) {
                    final int partitions = 2 + i % 2;
                    results.add(pool.submit(() -> {
                        start.await();
                        try (SchemaLog log = SchemaLog.open(logDir, REQUEST, partitions)) {
                            return log.partitions();
                        } catch (final IllegalArgumentException refused) {
                            assertThat(refused).hasMessageContaining("partitions, asked for " + partitions);
                            return -1;
                        }
                    }));
                }
                final List<Integer> opened = new ArrayList<>();
                for (final Future<Integer> result : results) {
                    opened.add(result.get(60, TimeUnit.SECONDS));
                }
                final int winner;
                try (SchemaLog log = SchemaLog.openExisting(logDir, REQUEST)) {
                    winner = log.partitions();
                }
                assertThat(opened).as("round " + round + ": each opener got the winning count or was refused")
                        .allMatch(count -> count == winner || count == -1)
                        .contains(winner);
                assertThat(opened.stream().filter(count -> count == winner).count()).as("round " + round).isEqualTo(openers / 2);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void when_readerResumesAfterIndex_then_itContinuesWithTheNextRecord() {
        try (SchemaLog log = SchemaLog.open(dir, EventType.CLICK.schema(), 1)) {
            new EventGenerator(GeneratorSpec.of(EventType.CLICK, 1, 100, 5)).generate(log::append);
            final long resumeAfter;
            try (PartitionReader reader = log.reader(0, PartitionReader.START)) {
                for (int i = 0; i < 40; i++) {
                    reader.next();
                }
                resumeAfter = reader.lastIndex();
            }
            final List<Long> rest = readSequences(log, 0, resumeAfter);
            assertThat(rest).hasSize(60).first().isEqualTo(40L);
        }
    }

    @Test
    void when_reopenedWithOtherPartitionCount_then_refused() {
        SchemaLog.open(dir, REQUEST, 4).close();

        assertThatThrownBy(() -> SchemaLog.open(dir, REQUEST, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 4 partitions, asked for 2");
        try (SchemaLog log = SchemaLog.openExisting(dir, REQUEST)) {
            assertThat(log.partitions()).isEqualTo(4);
        }
    }

    @Test
    void when_partitionOfComputed_then_itMatchesThePinnedFormat() {
        // The key-to-partition mapping is part of the on-disk format; these values (fmix64 of the
        // key modulo 8, computed once by hand) must never change.
        assertThat(KeyPartitions.partitionOf(1, 8)).isEqualTo(4);
        assertThat(KeyPartitions.partitionOf(42, 8)).isEqualTo(4);
        assertThat(KeyPartitions.partitionOf(0x0A000001L, 8)).isEqualTo(6);
    }

    @Test
    void when_rawBytesOfWrongLengthAppended_then_readerReportsTheirLength() {
        try (SchemaLog log = SchemaLog.open(dir, REQUEST, 1)) {
            log.append(0, new UnsafeBuffer(new byte[] {1, 2, 3}), 0, 3);
            try (PartitionReader reader = log.reader(0, PartitionReader.START)) {
                assertThat(reader.next()).isEqualTo(3);
                assertThat(reader.next()).isEqualTo(-1);
            }
        }
    }

    private static List<Long> readSequences(final SchemaLog log, final int partition, final long after) {
        final List<Long> sequences = new ArrayList<>();
        final SchemaRecord record = new SchemaRecord(log.schema().layout());
        int length;
        try (PartitionReader reader = log.reader(partition, after)) {
            while ((length = reader.next()) >= 0) {
                sequences.add(record.wrap(reader.buffer(), 0, length).sequence());
            }
        }
        return sequences;
    }
}
