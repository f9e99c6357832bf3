package io.streamgrid.client.impl.publish;

import com.hazelcast.core.HazelcastInstance;

/**
 * The member's side of publishing, implemented by the member process (it holds the logs) and
 * found in the member's user context under {@link #CONTEXT_KEY}: {@link PublishBatch} runs on the
 * member that owns a publisher's ledger entry and hands the batch here.
 */
public interface MemberPublishing {
    String CONTEXT_KEY = "io.streamgrid.publishing";
    /** Per publisher ({@code <schema>/<publisher id>}), its {@link PublisherLedger}. */
    String LEDGERS = "streamgrid.publishers";

    /** Per event of a batch: appended, in the log already, or rejected (see {@link BatchResult}). */
    byte APPENDED = 0;
    byte DUPLICATE = 1;
    byte REJECTED = 2;

    /**
     * Appends {@code events} (flat JSON objects, UTF-8, one after the other, event {@code i} ending
     * before {@code ends[i]}) numbered {@code sequences} for publisher
     * {@code publisherId} of {@code schema}, each sequence at most once. {@code ledger} is the
     * publisher's entry, null when it has none (a new publisher, or the cluster restarted): the
     * log then says how far the publisher got.
     *
     * @throws IllegalArgumentException when the schema is unknown to the members
     * @throws IllegalStateException    when the log cannot take the events (nothing is then known of them)
     */
    BatchResult publish(String schema, String publisherId, PublisherLedger ledger, long[] sequences, byte[] events, int[] ends);

    /**
     * Where publisher {@code publisherId} of {@code schema} produces its events itself when the log
     * is Kafka — with {@code ledger}, the one an open just wrote — or null when the log is Chronicle
     * (only the members of its host can append). From then on the log, not this member's memory,
     * says how far the publisher got: the next batch or open through a member reads it first.
     */
    KafkaRoute kafkaRoute(String schema, String publisherId, PublisherLedger ledger);

    /** The publisher's new ledger; per event its status and, when rejected, the reason. */
    record BatchResult(PublisherLedger ledger, byte[] statuses, String[] reasons) {
    }

    static MemberPublishing of(final HazelcastInstance member) {
        final Object publishing = member.getUserContext().get(CONTEXT_KEY);
        if (!(publishing instanceof MemberPublishing found)) {
            throw new IllegalStateException("member " + member.getName() + " does not take published events: it is not a"
                    + " StreamGrid member (no " + CONTEXT_KEY + " in its user context)");
        }
        return found;
    }
}
