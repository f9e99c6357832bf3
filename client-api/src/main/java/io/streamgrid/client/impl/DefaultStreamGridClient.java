package io.streamgrid.client.impl;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.client.ClientSettings;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.LocalView;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cq.Where;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The client over a Hazelcast Java client with smart routing. */
public final class DefaultStreamGridClient implements StreamGridClient {
    private final HazelcastInstance client;
    /** The shared journal reads of this client's subscriptions, per map. */
    private final Map<String, MapFeed> feeds = new ConcurrentHashMap<>();

    /** Where the members push this client's subscriptions' changes; made with the first subscription (guarded by this). */
    private PushInbox inbox;

    private DefaultStreamGridClient(final HazelcastInstance client) {
        this.client = client;
    }

    public static StreamGridClient connect(final ClientSettings settings) {
        try {
            return new DefaultStreamGridClient(HazelcastClient.newHazelcastClient(settings.toHazelcastConfig()));
        } catch (final IllegalStateException e) {
            throw new IllegalStateException("no member of cluster '" + settings.clusterName() + "' answered at "
                    + settings.addresses() + " within " + settings.connectTimeout().toSeconds() + " s", e);
        }
    }

    @Override
    public Object get(final String map, final Object key) {
        return client.getMap(map).get(key);
    }

    @Override
    public Map<Object, Object> getAll(final String map, final Set<?> keys) {
        return new HashMap<>(client.<Object, Object>getMap(map).getAll(Set.copyOf(keys)));
    }

    @Override
    public Map<Object, Object> query(final String map, final String where) {
        final Map<Object, Object> result = new HashMap<>();
        for (final Map.Entry<Object, Object> entry : client.<Object, Object>getMap(map).entrySet(Where.parse(where))) {
            result.put(entry.getKey(), entry.getValue());
        }
        return result;
    }

    @Override
    public Subscription subscribe(final String map, final String where, final DeltaListener listener,
                                  final SubscriptionOptions options) {
        return start(map, where, listener, options, new HashMap<>());
    }

    @Override
    public LocalView localView(final String map, final String where, final SubscriptionOptions options) {
        final MirrorView view = new MirrorView();
        view.attach(start(map, where, view, options, view.entries()));
        return view;
    }

    private ContinuousSubscription start(final String map, final String where, final DeltaListener listener,
                                         final SubscriptionOptions options, final Map<Object, Object> mirror) {
        final Where parsed = Where.parse(where);
        final MapFeed feed = feeds.computeIfAbsent(map, name -> new MapFeed(client, name, inbox()));
        return new ContinuousSubscription(client, feed, map, parsed, listener, options, mirror).start();
    }

    private synchronized PushInbox inbox() {
        if (inbox == null) {
            inbox = new PushInbox(client);
        }
        return inbox;
    }

    @Override
    public io.streamgrid.client.Publisher publisher(final String schema, final String publisherId,
                                                   final io.streamgrid.client.PublisherOptions options) {
        return io.streamgrid.client.impl.publish.DefaultPublisher.open(hazelcast(), schema, publisherId, options);
    }

    @Override
    public HazelcastInstance hazelcast() {
        return client;
    }

    @Override
    public void close() {
        client.shutdown();
    }
}
