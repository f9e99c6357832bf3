package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.Person;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
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
        write(ingestDir, generator, events, partitions, progress, null);
    }

    /**
     * Writes the logs, each event once {@code paced} says it is due (its clock starts with the
     * first), or as fast as it can when {@code paced} is {@code null}.
     */
    static void write(final Path ingestDir, final NexmarkGenerator generator, final long events, final int partitions,
                      final Consumer<String> progress, final PacedRun paced) {
        try (SchemaLog persons = SchemaLog.open(SchemaLog.directoryOf(ingestDir, PERSON.name()), PERSON, partitions);
             SchemaLog auctions = SchemaLog.open(SchemaLog.directoryOf(ingestDir, AUCTION.name()), AUCTION, partitions);
             SchemaLog bids = SchemaLog.open(SchemaLog.directoryOf(ingestDir, BID.name()), BID, partitions)) {
            final Writer person = new Writer(PERSON);
            final Writer auction = new Writer(AUCTION);
            final Writer bid = new Writer(BID);
            if (paced != null) {
                paced.start();
            }
            for (long n = 0; n < events; n++) {
                final Object event = generator.event(n);
                if (paced != null) {
                    paced.awaitRelease(generator.timeOf(n));
                }
                if (event instanceof Person p) {
                    persons.append(person.next(n).set(PERSON_ID, p.id()).set(PERSON_NAME, p.name()).set(PERSON_EMAIL, p.emailAddress())
                            .set(PERSON_CARD, p.creditCard()).set(PERSON_CITY, p.city()).set(PERSON_STATE, p.state())
                            .set(PERSON_TIME, p.dateTime()).set(PERSON_EXTRA, p.extra()));
                } else if (event instanceof Auction a) {
                    auctions.append(auction.next(n).set(AUCTION_ID, a.id()).set(AUCTION_ITEM, a.itemName())
                            .set(AUCTION_DESCRIPTION, a.description()).set(AUCTION_INITIAL_BID, a.initialBid())
                            .set(AUCTION_RESERVE, a.reserve()).set(AUCTION_TIME, a.dateTime()).set(AUCTION_EXPIRES, a.expires())
                            .set(AUCTION_SELLER, a.seller()).set(AUCTION_CATEGORY, a.category()).set(AUCTION_EXTRA, a.extra()));
                } else {
                    final Bid b = (Bid) event;
                    bids.append(bid.next(n).set(BID_AUCTION, b.auction()).set(BID_BIDDER, b.bidder()).set(BID_PRICE, b.price())
                            .set(BID_CHANNEL, b.channel()).set(BID_URL, b.url()).set(BID_TIME, b.dateTime()).set(BID_EXTRA, b.extra()));
                }
                if ((n + 1) % Math.max(1, events / 10) == 0) {
                    progress.accept("  wrote " + (n + 1) + " of " + events + " NEXMark events");
                }
            }
            persons.appendEndOfStream();
            auctions.appendEndOfStream();
            bids.appendEndOfStream();
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
