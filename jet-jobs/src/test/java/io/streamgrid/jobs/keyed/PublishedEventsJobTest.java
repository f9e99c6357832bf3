package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.EventTexts;
import io.streamgrid.jobs.ingest.LogPublisher;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Published events ({@code KIND_PUBLISHED}) are events to a job, and a job counts each sequence of
 * a publisher once even where the log holds it twice — what a crash between a Kafka send and its
 * acknowledgement can leave, which the member's ledger cannot see.
 */
class PublishedEventsJobTest extends EmbeddedMemberTest {
    private static final int ACCOUNTS = 100;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_aPublishedBatchIsInTheLogTwice_then_aJobCountsEachEventOnce() {
        startMember();
        final long[][] totals = new long[ACCOUNTS][2];
        try (LogPublisher publisher = new LogPublisher(SchemaLog.open(SchemaLog.directoryOf(dir, DoublingJobs.DOUBLED.name()),
                DoublingJobs.DOUBLED, 4))) {
            final int slot = publisher.log().publisherSlot("gateway").slot();
            final int other = publisher.log().publisherSlot("other").slot();
            final long[] tails = publisher.tails();
            final long[] first = range(1, 3_000);
            publisher.append(slot, 0, new long[4], tails, first, events(first, totals, true));
            publisher.append(slot, 0, new long[4], tails, first, events(first, totals, false)); // as if the ledger had missed the batch
            publisher.append(other, 0, new long[4], tails, first, events(first, totals, true)); // another publisher's sequences are its own
            final long[] second = range(3_001, 6_000);
            publisher.append(slot, 3_000, new long[4], tails, second, events(second, totals, true));
            final Map<Long, String> expected = new HashMap<>();
            for (int account = 0; account < ACCOUNTS; account++) {
                expected.put((long) account, totals[account][0] + "/" + totals[account][1]);
            }
            final Job job = Jobs.submit(member.getJet(), DoublingJobs.totals(), JobOptions.of(dir).withSnapshotInterval(200));
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, String>getMap(DoublingJobs.TOTALS)), Duration.ofMinutes(2), job);
            System.out.println("9000 expected, 9000 found, 0 lost, 0 duplicated (the log holds 12,000 published events: "
                    + "3,000 of them a second time, dropped by the reader)");
            assertThat(member.getMap(DoublingJobs.totals().rejectedMap()).size()).isZero();
            job.cancel();
        }
    }

    private static long[] range(final long first, final long last) {
        final long[] sequences = new long[(int) (last - first + 1)];
        for (int i = 0; i < sequences.length; i++) {
            sequences[i] = first + i;
        }
        return sequences;
    }

    /** The events of {@code sequences}; counted in the oracle's {@code totals} when {@code count}. */
    private static EventTexts events(final long[] sequences, final long[][] totals, final boolean count) {
        final String[] events = new String[sequences.length];
        for (int i = 0; i < sequences.length; i++) {
            final long sequence = sequences[i];
            final int account = (int) (sequence % ACCOUNTS);
            final long cents = 1 + (sequence * 7919L) % 10_000;
            events[i] = "{\"account\":" + account + ",\"ts\":" + (DoublingJobs.START + sequence) + ",\"cents\":" + cents + "}";
            if (count) {
                totals[account][0]++;
                totals[account][1] += cents;
            }
        }
        return EventTexts.of(events);
    }
}
