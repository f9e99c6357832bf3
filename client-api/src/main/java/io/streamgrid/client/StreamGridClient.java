package io.streamgrid.client;

import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.client.impl.DefaultStreamGridClient;

import java.util.Map;
import java.util.Set;

/**
 * What applications use: reads of state maps, queries with {@link io.streamgrid.cq.Where} text,
 * subscriptions (snapshot, then ordered deltas, recovering by themselves) and local views.
 */
public interface StreamGridClient extends AutoCloseable {

    /**
     * Connects (smart routing: to every member).
     *
     * @throws IllegalStateException naming the addresses when no member answers within the timeout
     */
    static StreamGridClient connect(final ClientSettings settings) {
        return DefaultStreamGridClient.connect(settings);
    }

    Object get(String map, Object key);

    Map<Object, Object> getAll(String map, Set<?> keys);

    /**
     * The entries of {@code map} whose value matches {@code where}, evaluated on the members.
     *
     * @throws io.streamgrid.cq.PredicateSyntaxException for invalid text
     */
    Map<Object, Object> query(String map, String where);

    /**
     * Subscribes to the entries of {@code map} matching {@code where}: {@code listener} gets the
     * snapshot, then ordered deltas. Returns once the snapshot is delivered. Member crashes and
     * migrations lose nothing (the journal is backed up and migrates); a listener slower than the
     * changes makes reading wait for it, or, conflated, gets the latest value of each key (see
     * {@link SubscriptionOptions}); journal events
     * overwritten before they were read are recovered by re-reading the affected partitions,
     * reported with {@link DeltaListener#onResync}. State maps keep an event journal
     * ({@code state.*}: see the member configuration); other maps cannot be subscribed to.
     */
    Subscription subscribe(String map, String where, DeltaListener listener, SubscriptionOptions options);

    /**
     * A view of the entries of {@code map} matching {@code where}, kept current by a conflated
     * subscription ({@link SubscriptionOptions.Delivery#CONFLATED}: a view needs each key's latest
     * value, and its change hooks then get the latest changes rather than a backlog).
     */
    default LocalView localView(final String map, final String where) {
        return localView(map, where, SubscriptionOptions.conflated());
    }

    /** As {@link #localView(String, String)}, delivering as {@code options} say (every change, for hooks that need each version). */
    LocalView localView(String map, String where, SubscriptionOptions options);

    /**
     * Opens publisher {@code publisherId} of {@code schema}'s log: events published through it are
     * appended by the members, each exactly once (see {@link Publisher}). {@code publisherId} is
     * the application's stable name for this stream of events (one per producing process or
     * source, e.g. {@code "gateway-7"}); one instance at a time per id.
     *
     * @throws IllegalArgumentException naming the known schemas when the members have no schema {@code schema}
     * @throws IllegalStateException    when the members or their log do not answer within the delivery timeout
     */
    Publisher publisher(String schema, String publisherId, PublisherOptions options);

    /** As {@link #publisher(String, String, PublisherOptions)} with {@link PublisherOptions#defaults()}. */
    default Publisher publisher(final String schema, final String publisherId) {
        return publisher(schema, publisherId, PublisherOptions.defaults());
    }

    /** The underlying Hazelcast client, for what this API does not cover. */
    HazelcastInstance hazelcast();

    @Override
    void close();
}
