package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.Person;
import io.streamgrid.perf.BenchContext;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * Writes NEXMark's events {@code 0 .. events-1} into the three schema logs under an ingest
 * directory, in event order, each ended with an end-of-stream record (a job reading it then emits
 * everything still due, as a bounded source's end does in Flink).
 */
final class NexmarkLogs {
    private NexmarkLogs() {
    }

    /** Writes the logs as fast as it can; {@code progress} hears about every 10 % of them. */
    static void write(final Path ingestDir, final NexmarkGenerator generator, final long events, final int partitions,
                      final Consumer<String> progress) {
        final Encoder encoder = new Encoder(generator);
        try (Logs logs = new Logs(ingestDir, partitions)) {
            for (long n = 0; n < events; n++) {
                final SchemaRecord record = encoder.encode(n);
                logs.of(encoder.kind()).append(record);
                if ((n + 1) % Math.max(1, events / 10) == 0) {
                    progress.accept("  wrote " + (n + 1) + " of " + events + " NEXMark events");
                }
            }
            logs.end();
        }
    }

    /**
     * Events {@code 0 .. events-1} encoded into memory as their records, to be written later paced
     * ({@link Encoded#writePaced}): as Flink's events are generated before its job starts, so that
     * a paced run measures the engine, not the generator (nor its garbage).
     */
    static Encoded encode(final NexmarkGenerator generator, final long events) {
        final Encoder encoder = new Encoder(generator);
        final int[] offsets = new int[Math.toIntExact(events + 1)];
        final byte[] kinds = new byte[(int) events];
        final ExpandableDirectByteBuffer records = new ExpandableDirectByteBuffer(1 << 20);
        for (int n = 0; n < events; n++) {
            final SchemaRecord record = encoder.encode(n);
            kinds[n] = (byte) encoder.kind();
            records.putBytes(offsets[n], record.buffer(), record.offset(), record.length());
            offsets[n + 1] = Math.addExact(offsets[n], record.length());
        }
        return new Encoded(generator, records, offsets, kinds);
    }

    /** Encoded events: record {@code n} is at {@code offsets[n]} up to {@code offsets[n + 1]}, of kind {@code kinds[n]}. */
    record Encoded(NexmarkGenerator generator, DirectBuffer records, int[] offsets, byte[] kinds) {
        /**
         * Writes the events into the logs under {@code ingestDir} as an application publishing them
         * would: each once {@code paced} says it is due (its clock starts with the first); then ends
         * the logs.
         */
        void writePaced(final Path ingestDir, final int partitions, final PacedRun paced) {
            final List<SchemaRecord> readers = List.of(new SchemaRecord(PERSON.layout()), new SchemaRecord(AUCTION.layout()),
                    new SchemaRecord(BID.layout()));
            try (Logs logs = new Logs(ingestDir, partitions)) {
                paced.start();
                for (int n = 0; n < kinds.length; n++) {
                    paced.awaitRelease(generator.timeOf(n));
                    final SchemaRecord record = readers.get(kinds[n]).wrap(records, offsets[n], offsets[n + 1] - offsets[n]);
                    logs.of(kinds[n]).append(record);
                }
                logs.end();
            }
        }
    }

    /** The log of {@code schema} under {@code ingestDir} emptied and created afresh, open. */
    static SchemaLog fresh(final Path ingestDir, final EventSchema schema, final int partitions) {
        final Path log = SchemaLog.directoryOf(ingestDir, schema.name());
        BenchContext.empty(log);
        return SchemaLog.open(log, schema, partitions);
    }

    /** Empties the three logs of NEXMark's events under {@code ingestDir} and creates them afresh, so jobs can start on them. */
    static void createEmpty(final Path ingestDir, final int partitions) {
        for (final EventSchema schema : List.of(PERSON, AUCTION, BID)) {
            fresh(ingestDir, schema, partitions).close();
        }
    }

    /** The three logs, open. */
    private static final class Logs implements AutoCloseable {
        private final SchemaLog persons;
        private final SchemaLog auctions;
        private final SchemaLog bids;

        Logs(final Path ingestDir, final int partitions) {
            persons = SchemaLog.open(SchemaLog.directoryOf(ingestDir, PERSON.name()), PERSON, partitions);
            auctions = SchemaLog.open(SchemaLog.directoryOf(ingestDir, AUCTION.name()), AUCTION, partitions);
            bids = SchemaLog.open(SchemaLog.directoryOf(ingestDir, BID.name()), BID, partitions);
        }

        /** The log of an event's kind ({@link Encoder#kind}). */
        SchemaLog of(final int kind) {
            return kind == Encoder.BID_KIND ? bids : kind == Encoder.AUCTION_KIND ? auctions : persons;
        }

        void end() {
            persons.appendEndOfStream();
            auctions.appendEndOfStream();
            bids.appendEndOfStream();
        }

        @Override
        public void close() {
            persons.close();
            auctions.close();
            bids.close();
        }
    }

    /** Event {@code n} of the generator as a record of its schema, numbered by {@code n} (the log's order). */
    private static final class Encoder {
        static final int PERSON_KIND = 0;
        static final int AUCTION_KIND = 1;
        static final int BID_KIND = 2;
        private final NexmarkGenerator generator;
        private final Writer person = new Writer(PERSON);
        private final Writer auction = new Writer(AUCTION);
        private final Writer bid = new Writer(BID);
        private int kind;

        Encoder(final NexmarkGenerator generator) {
            this.generator = generator;
        }

        /** The kind of the event encoded last: {@link #PERSON_KIND}, {@link #AUCTION_KIND} or {@link #BID_KIND}. */
        int kind() {
            return kind;
        }

        /** The record, valid until the next call. */
        SchemaRecord encode(final long n) {
            final Object event = generator.event(n);
            if (event instanceof Person p) {
                kind = PERSON_KIND;
                return person.next(n).set(PERSON_ID, p.id()).set(PERSON_NAME, p.name()).set(PERSON_EMAIL, p.emailAddress())
                        .set(PERSON_CARD, p.creditCard()).set(PERSON_CITY, p.city()).set(PERSON_STATE, p.state())
                        .set(PERSON_TIME, p.dateTime()).set(PERSON_EXTRA, p.extra());
            }
            if (event instanceof Auction a) {
                kind = AUCTION_KIND;
                return auction.next(n).set(AUCTION_ID, a.id()).set(AUCTION_ITEM, a.itemName())
                        .set(AUCTION_DESCRIPTION, a.description()).set(AUCTION_INITIAL_BID, a.initialBid())
                        .set(AUCTION_RESERVE, a.reserve()).set(AUCTION_TIME, a.dateTime()).set(AUCTION_EXPIRES, a.expires())
                        .set(AUCTION_SELLER, a.seller()).set(AUCTION_CATEGORY, a.category()).set(AUCTION_EXTRA, a.extra());
            }
            final Bid b = (Bid) event;
            kind = BID_KIND;
            return bid.next(n).set(BID_AUCTION, b.auction()).set(BID_BIDDER, b.bidder()).set(BID_PRICE, b.price())
                    .set(BID_CHANNEL, b.channel()).set(BID_URL, b.url()).set(BID_TIME, b.dateTime()).set(BID_EXTRA, b.extra());
        }
    }

    /** A reusable record of one schema. */
    private static final class Writer {
        private final SchemaRecord record;
        private final UnsafeBuffer buffer;

        Writer(final EventSchema schema) {
            this.record = new SchemaRecord(schema.layout());
            this.buffer = new UnsafeBuffer(new byte[schema.layout().length()]);
        }

        /** A fresh record numbered by its event number (the log's order). */
        SchemaRecord next(final long n) {
            return record.wrapForWrite(buffer, 0).sequence(n);
        }
    }
}
