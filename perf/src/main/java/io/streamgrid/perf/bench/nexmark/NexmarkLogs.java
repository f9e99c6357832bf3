package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.Person;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.function.Consumer;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * Writes NEXMark's events {@code 0 .. events-1} into the three schema logs ({@link InputLogs}:
 * Chronicle queues or Kafka topics), in event order, each ended with an end-of-stream record (a job
 * reading it then emits everything still due, as a bounded source's end does in Flink).
 */
final class NexmarkLogs {
    private NexmarkLogs() {
    }

    /**
     * Writes the logs, emptied first, as fast as it can; {@code progress} hears about every 10 % of
     * them. Returns once every event is durable in the logs.
     */
    static void write(final InputLogs input, final NexmarkGenerator generator, final long events, final int partitions,
                      final Consumer<String> progress) {
        input.createEmptyEventLogs(partitions);
        final Encoder encoder = new Encoder(generator);
        try (Logs logs = new Logs(input)) {
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
         * Writes the events into the logs of {@code input} (created already) as an application
         * publishing them would: each once {@code paced} says it is due (its clock starts with the
         * first); then ends the logs.
         */
        void writePaced(final InputLogs input, final PacedRun paced) {
            final List<SchemaRecord> readers = List.of(new SchemaRecord(PERSON.layout()), new SchemaRecord(AUCTION.layout()),
                    new SchemaRecord(BID.layout()));
            try (Logs logs = new Logs(input)) {
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

    /** The three logs, open (they exist). */
    private static final class Logs implements AutoCloseable {
        private final EventLog persons;
        private final EventLog auctions;
        private final EventLog bids;

        Logs(final InputLogs input) {
            persons = input.source().open(PERSON, PERSON.name());
            auctions = input.source().open(AUCTION, AUCTION.name());
            bids = input.source().open(BID, BID.name());
        }

        /** The log of an event's kind ({@link Encoder#kind}). */
        EventLog of(final int kind) {
            return kind == Encoder.BID_KIND ? bids : kind == Encoder.AUCTION_KIND ? auctions : persons;
        }

        /** Ends the logs and waits until all they were given is durable (Kafka's appends are asynchronous). */
        void end() {
            for (final EventLog log : List.of(persons, auctions, bids)) {
                log.appendEndOfStream();
                log.flush();
            }
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
