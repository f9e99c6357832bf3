package io.streamgrid.client.impl.push;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.streamgrid.cq.ChangeFilter;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The member's side of continuous queries: it reads its own partitions' journals for the client
 * feeds attached to it and pushes what each feed's predicates pass to that client ({@link MapPush}).
 * One read per partition serves every client attached to it — the members' work is shared across
 * clients, not repeated per client — and a read is local to the member: no request crosses the
 * network, only the changes a client wants do.
 *
 * <p>Created on a member the first time a client asks ({@link PushControl}), kept in its user
 * context, stopped with the member. Clients drive everything else: they attach a partition from
 * the journal position they have (so a member's death, a migration or a lost message costs them a
 * re-attachment from where they were, not a resync), and renew their lease; a feed not heard from
 * for {@link #LEASE_MS} is dropped.
 */
public final class MemberPush {
    /** Where a member keeps its push service, in its user context. */
    public static final String CONTEXT_KEY = "io.streamgrid.push";
    /** A feed not renewed within this is dropped; clients renew every {@code LEASE_MS / 6}. */
    public static final long LEASE_MS = 30_000;
    /** How often every attached partition is read whether a local change rang or not, and positions are sent. */
    public static final long SWEEP_MS = 250;
    private static final Logger LOG = Logger.getLogger(MemberPush.class.getName());

    private final HazelcastInstance member;
    private final Map<String, MapPush> maps = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;
    /** Hands out read answers off the partition threads. */
    private final ExecutorService handOut;

    private MemberPush(final HazelcastInstance member) {
        this.member = member;
        this.sweeper = Executors.newSingleThreadScheduledExecutor(daemon("streamgrid-push-sweep"));
        this.handOut = Executors.newFixedThreadPool(2, daemon("streamgrid-push"));
        sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        LOG.info("a client asked for continuous-query changes: this member now pushes its partitions' changes to clients");
        member.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN
                    || event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                sweeper.shutdownNow();
                handOut.shutdownNow();
            }
        });
    }

    /** The member's push service, created on first use. */
    static MemberPush of(final HazelcastInstance member) {
        return (MemberPush) member.getUserContext().computeIfAbsent(CONTEXT_KEY, k -> new MemberPush(member));
    }

    void control(final String topic, final String map, final ChangeFilter filter, final int[] attach, final int[] generations,
                 final long[] positions, final int[] detach, final int[] detachGenerations) {
        final MapPush push = maps.computeIfAbsent(map, name -> new MapPush(member, name, handOut));
        push.control(topic, filter, attach, generations, positions, detach, detachGenerations, System.currentTimeMillis() + LEASE_MS);
    }

    private void sweep() {
        try {
            final long now = System.currentTimeMillis();
            maps.values().forEach(push -> push.sweep(now));
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "continuous-query push sweep failed; it runs again in " + SWEEP_MS + " ms", e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(final String name) {
        return runnable -> {
            final Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
