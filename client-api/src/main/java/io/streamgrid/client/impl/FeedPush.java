package io.streamgrid.client.impl;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.IExecutorService;
import io.streamgrid.client.impl.push.MemberPush;
import io.streamgrid.client.impl.push.PushControl;
import io.streamgrid.cq.ChangeFilter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link MapFeed}'s attachments to the members that push its changes ({@link MemberPush}): which
 * member pushes each partition from which position, and the requests that change it. Each
 * partition is attached on its owner (a local read there); requests are collected and sent as one
 * {@link PushControl} per member. The feed moves a partition when its owner changes, when its member
 * left or went silent (no positions message for {@link #SILENT_MS}), and when a request failed — from
 * the position it has, so none of these costs a resync. Leases are renewed every
 * {@code MemberPush.LEASE_MS / 6}.
 *
 * <p>When the members cannot push (they are not StreamGrid members: the request fails to
 * deserialize or run), the feed goes back to reading the journals itself.
 */
final class FeedPush {
    static final String EXECUTOR = "streamgrid.push";
    /** A member that sent no positions for this long while partitions are attached on it is taken as gone. */
    static final long SILENT_MS = 3_000;
    private static final Logger LOG = Logger.getLogger(FeedPush.class.getName());
    private static final int[] NONE = new int[0];

    private final HazelcastInstance client;
    private final ClientPartitions partitions;
    private final String topic;
    private final String map;
    private final MapFeed feed;
    /** Guarded by this. */
    private final Map<Integer, Request> toAttach = new HashMap<>();
    /** Partitions to detach, with the generation that detaches them. */
    private final Map<Integer, Integer> toDetach = new HashMap<>();
    private boolean flushScheduled;
    /** Per partition, the member pushing it (null: none) and the generation last requested (guarded by this). */
    private final UUID[] attachedOn;
    private final int[] requested;
    private final Map<UUID, Long> lastHeard = new ConcurrentHashMap<>();
    private volatile long lastRenewMs;

    record Request(int generation, long position, ChangeFilter filter) {
    }

    FeedPush(final HazelcastInstance client, final PushInbox inbox, final String map, final MapFeed feed, final int partitions) {
        this.client = client;
        this.partitions = new ClientPartitions(client);
        this.topic = inbox.topic();
        this.map = map;
        this.feed = feed;
        this.attachedOn = new UUID[partitions];
        this.requested = new int[partitions];
        this.lastRenewMs = System.currentTimeMillis();
    }

    /** Asks for {@code partition}'s changes that {@code filter} passes from {@code position} on, stamped {@code generation}. */
    synchronized void attach(final int partition, final int generation, final long position, final ChangeFilter filter) {
        toDetach.remove(partition);
        toAttach.put(partition, new Request(generation, position, filter));
        requested[partition] = generation;
        scheduleFlush();
    }

    /** No more changes of {@code partition} are wanted from {@code generation} on. */
    synchronized void detach(final int partition, final int generation) {
        toAttach.remove(partition);
        requested[partition] = generation;
        toDetach.put(partition, generation); // also when no attachment was confirmed yet: one may be on its way
        scheduleFlush();
    }

    /** A message of member {@code member} arrived: it is alive. */
    void heard(final UUID member) {
        lastHeard.put(member, System.currentTimeMillis());
    }

    private void scheduleFlush() {
        if (!flushScheduled) {
            flushScheduled = true;
            CompletableFuture.runAsync(this::flush);
        }
    }

    private void flush() {
        final Map<Integer, Request> attach;
        final Map<Integer, Integer> detach;
        final Map<UUID, Map<Integer, Integer>> detachOn = new HashMap<>();
        final Map<UUID, Map<ChangeFilter, List<Integer>>> attachOn = new HashMap<>();
        final List<Integer> ownerless = new ArrayList<>();
        synchronized (this) {
            attach = new HashMap<>(toAttach);
            detach = new HashMap<>(toDetach);
            toAttach.clear();
            toDetach.clear();
            flushScheduled = false;
            detach.forEach((p, generation) -> {
                // Not yet confirmed, an attachment was sent to the owner of the time: most likely the owner now.
                final UUID on = attachedOn[p] != null ? attachedOn[p] : partitions.ownerOf(p);
                if (on != null) {
                    detachOn.computeIfAbsent(on, m -> new HashMap<>()).put(p, generation);
                }
                attachedOn[p] = null;
            });
            for (final Map.Entry<Integer, Request> entry : attach.entrySet()) {
                final int p = entry.getKey();
                final UUID owner = partitions.ownerOf(p);
                if (owner == null) {
                    ownerless.add(p);
                    continue;
                }
                if (attachedOn[p] != null && !attachedOn[p].equals(owner)) {
                    detachOn.computeIfAbsent(attachedOn[p], m -> new HashMap<>()).put(p, entry.getValue().generation());
                }
                attachOn.computeIfAbsent(owner, m -> new HashMap<>()).computeIfAbsent(entry.getValue().filter(), f -> new ArrayList<>())
                        .add(p);
            }
        }
        final Map<UUID, Member> members = membersById();
        for (final Map.Entry<UUID, Map<Integer, Integer>> entry : detachOn.entrySet()) {
            final Member member = members.get(entry.getKey());
            if (member != null && !attachOn.containsKey(entry.getKey())) {
                final Map<Integer, Integer> here = entry.getValue();
                send(member, new PushControl(topic, map, null, NONE, NONE, new long[0], keys(here), values(here)), List.of(), attach);
            }
        }
        for (final Map.Entry<UUID, Map<ChangeFilter, List<Integer>>> byMember : attachOn.entrySet()) {
            final Member member = members.get(byMember.getKey());
            if (member == null) {
                byMember.getValue().values().forEach(ownerless::addAll); // it left meanwhile: the new owner is known in a moment
                continue;
            }
            Map<Integer, Integer> detachHere = detachOn.getOrDefault(member.getUuid(), Map.of());
            for (final Map.Entry<ChangeFilter, List<Integer>> byFilter : byMember.getValue().entrySet()) {
                final List<Integer> partitions = byFilter.getValue();
                final int[] generations = new int[partitions.size()];
                final long[] positions = new long[partitions.size()];
                for (int i = 0; i < partitions.size(); i++) {
                    final Request request = attach.get(partitions.get(i));
                    generations[i] = request.generation();
                    positions[i] = request.position();
                }
                send(member, new PushControl(topic, map, byFilter.getKey(), ints(partitions), generations, positions, keys(detachHere),
                        values(detachHere)), partitions, attach);
                detachHere = Map.of();
            }
        }
        if (!ownerless.isEmpty()) {
            retryLater(ownerless, attach);
        }
    }

    private void send(final Member member, final PushControl control, final List<Integer> attached, final Map<Integer, Request> attach) {
        final IExecutorService executor = client.getExecutorService(EXECUTOR);
        executor.submitToMember(control, member, new ExecutionCallback<Boolean>() {
            @Override
            public void onResponse(final Boolean ok) {
                heard(member.getUuid());
                synchronized (FeedPush.this) {
                    for (final int p : attached) {
                        if (requested[p] == attach.get(p).generation()) {
                            attachedOn[p] = member.getUuid();
                        }
                    }
                }
            }

            @Override
            public void onFailure(final Throwable error) {
                final Throwable cause = ReadFailures.causeOf(error);
                if (!client.getLifecycleService().isRunning()) {
                    return;
                }
                if (ReadFailures.isTransient(cause)) {
                    retryLater(attached, attach);
                } else {
                    LOG.log(Level.WARNING, "member " + member.getAddress() + " cannot push the changes of " + map + " (" + cause
                            + "): this client reads its journals itself", cause);
                    feed.pushUnavailable();
                }
            }
        });
    }

    private void retryLater(final List<Integer> partitions, final Map<Integer, Request> attach) {
        CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> {
            for (final int p : partitions) {
                feed.repush(p, attach.get(p).generation());
            }
        });
    }

    /**
     * Every sweep of the feed: renews the leases, and moves the partitions whose member left, went
     * silent or no longer owns them.
     */
    void sweep() {
        final long now = System.currentTimeMillis();
        final Map<UUID, Member> members = membersById();
        final Set<UUID> used = new HashSet<>();
        final List<int[]> move = new ArrayList<>();
        synchronized (this) {
            for (int p = 0; p < attachedOn.length; p++) {
                final UUID on = attachedOn[p];
                if (on == null) {
                    continue;
                }
                used.add(on);
                final UUID owner = partitions.ownerOf(p);
                final boolean gone = !members.containsKey(on) || now - lastHeard.getOrDefault(on, now) > SILENT_MS;
                if (gone || (owner != null && !owner.equals(on))) {
                    move.add(new int[]{p, requested[p]});
                }
            }
        }
        if (now - lastRenewMs > MemberPush.LEASE_MS / 6) {
            lastRenewMs = now;
            for (final UUID on : used) {
                final Member member = members.get(on);
                if (member != null) {
                    send(member, new PushControl(topic, map, null, NONE, NONE, new long[0], NONE, NONE), List.of(), Map.of());
                }
            }
        }
        for (final int[] m : move) {
            feed.repush(m[0], m[1]);
        }
    }

    /** The cluster's members as this client knows them now, by id. */
    private Map<UUID, Member> membersById() {
        final Map<UUID, Member> members = new HashMap<>();
        client.getCluster().getMembers().forEach(m -> members.put(m.getUuid(), m));
        return members;
    }

    private static int[] keys(final Map<Integer, Integer> map) {
        return map.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    /** The values of {@code map} in the order of {@link #keys} (the same iteration of an unchanged map). */
    private static int[] values(final Map<Integer, Integer> map) {
        return map.keySet().stream().mapToInt(map::get).toArray();
    }

    private static int[] ints(final List<Integer> list) {
        final int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }
}
