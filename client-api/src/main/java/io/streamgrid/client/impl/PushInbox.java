package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.topic.ITopic;
import io.streamgrid.client.impl.push.PushMessage;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the members push this client's continuous-query changes: one topic per client, named by
 * the client's id, its messages handed to the feed of their map. Hazelcast delivers a member's
 * messages on one topic in the order it published them (the ordering the feeds' checks by
 * position rely on; a message lost on the way shows as a gap, never as a wrong result).
 */
final class PushInbox {
    private static final Logger LOG = Logger.getLogger(PushInbox.class.getName());

    private final String topic;
    private final Map<String, MapFeed> feeds = new ConcurrentHashMap<>();

    PushInbox(final HazelcastInstance client) {
        this.topic = "streamgrid.push." + client.getLocalEndpoint().getUuid();
        final ITopic<PushMessage> inbox = client.getTopic(topic);
        inbox.addMessageListener(message -> {
            final PushMessage pushed = message.getMessageObject();
            final UUID from = message.getPublishingMember().getUuid();
            if (pushed.kind() == PushMessage.BUNDLE) {
                for (final PushMessage one : pushed.bundled()) {
                    handOut(one, from);
                }
            } else {
                handOut(pushed, from);
            }
        });
    }

    private void handOut(final PushMessage message, final UUID from) {
        final MapFeed feed = feeds.get(message.map());
        if (feed == null) {
            return; // a feed this client no longer has: the member drops it when its lease runs out
        }
        try {
            feed.pushed(message, from);
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "a pushed change of " + message.map() + " could not be handed out", e);
        }
    }

    String topic() {
        return topic;
    }

    void register(final String map, final MapFeed feed) {
        feeds.put(map, feed);
    }
}
