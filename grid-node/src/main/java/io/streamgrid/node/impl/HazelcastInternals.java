package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.instance.impl.Node;

/**
 * The one way into a member's Hazelcast internals (the Hazelcast version in the parent pom): the
 * {@link Node} behind a member's instance, whether Hazelcast handed out its proxy
 * ({@code Hazelcast.newHazelcastInstance}) or the instance itself (as it gives to
 * {@code HazelcastInstanceAware} listeners). Fails with {@link ClassCastException} for a client.
 */
final class HazelcastInternals {
    private HazelcastInternals() {
    }

    static Node node(final HazelcastInstance member) {
        final HazelcastInstanceImpl impl = member instanceof HazelcastInstanceProxy proxy ? proxy.getOriginal()
                : (HazelcastInstanceImpl) member;
        return impl.node;
    }
}
