package io.streamgrid.client.impl.push;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalInitialSubscriberState;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member's pushing of one map ({@link MapPush}) against a real member in this JVM, with a
 * journal whose answers the test holds back — so a read is in flight exactly when the test wants.
 */
class MapPushTest {
    private static final String MAP = "state.pushed";
    private static final String TOPIC = "feed";

    /** A value with a {@code group} field. */
    record Version(long group, long version) {
    }

    private HazelcastInstance member;
    private ExecutorService handOut;

    @BeforeEach
    void startMember() {
        final Config config = new Config();
        config.setClusterName("map-push-" + UUID.randomUUID());
        config.setProperty("hazelcast.partition.count", "1");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        config.getMapConfig(MAP).getEventJournalConfig().setEnabled(true).setCapacity(10_000);
        member = Hazelcast.newHazelcastInstance(config);
        handOut = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void stopMember() {
        handOut.shutdownNow();
        member.getLifecycleService().terminate();
    }

    /**
     * Design of this test: a feed attached with {@code group = 0} has a read in flight (held); the
     * feed attaches again from the same position with {@code group = 0 OR group = 1} (a subscription
     * of {@code group = 1} joined the client). The read in flight was filtered without the new
     * predicate, so its answer cannot serve the new attachment. Oracle: the changes pushed to the
     * new attachment hold the key of group 1 written before it.
     */
    @Test
    void when_aFeedAttachesWithAWiderFilterWhileAReadIsInFlight_then_itIsPushedTheChangesOnlyTheWiderFilterPasses() {
        final IMap<Long, Version> map = member.getMap(MAP);
        map.set(1L, new Version(0, 1));
        map.set(2L, new Version(1, 1));
        final HeldJournal journal = new HeldJournal(member.getMap(MAP));
        final List<PushMessage> pushed = new CopyOnWriteArrayList<>();
        member.<PushMessage>getTopic(TOPIC).addMessageListener(message -> pushed.addAll(flat(message.getMessageObject())));
        final MapPush push = new MapPush(member, MAP, handOut, journal);
        final ChangeFilter narrow = new ChangeFilter(Where.parse("group = 0"));
        final ChangeFilter wide = ChangeFilter.anyOf(List.of(Where.parse("group = 0"), Where.parse("group = 1")));
        final long lease = System.currentTimeMillis() + 60_000;

        journal.hold();
        push.control(TOPIC, narrow, new int[]{0}, new int[]{1}, new long[]{0}, new int[0], new int[0], lease);
        push.control(TOPIC, wide, new int[]{0}, new int[]{2}, new long[]{0}, new int[0], new int[0], lease);
        journal.release();

        await().atMost(Duration.ofSeconds(10)).until(() -> changesOf(pushed, 2).stream().anyMatch(m -> m.next() >= 2));
        final List<Object> keys = new ArrayList<>();
        for (final PushMessage message : changesOf(pushed, 2)) {
            for (int i = 0; i < message.size(); i++) {
                keys.add(message.key(i));
            }
        }
        assertThat(keys).as("keys pushed to the attachment of the wider filter").containsExactlyInAnyOrder(1L, 2L);
    }

    /**
     * Design of this test: a client's requests reach the member on Hazelcast's executor, whose
     * threads may run two of them out of order. The feed attaches the partition (generation 3), then
     * a request the feed sent before it arrives: an attachment of generation 2, then a detachment of
     * generation 1. Oracle: a change written afterwards is pushed stamped 3 (the generation the
     * client waits for); the stale requests change nothing — applied, the client would drop every
     * message of the partition for good.
     */
    @Test
    void when_aFeedsOlderRequestsArriveAfterItsNewest_then_theNewestAttachmentStays() {
        final IMap<Long, Version> map = member.getMap(MAP);
        final List<PushMessage> pushed = new CopyOnWriteArrayList<>();
        member.<PushMessage>getTopic(TOPIC).addMessageListener(message -> pushed.addAll(flat(message.getMessageObject())));
        final MapPush push = new MapPush(member, MAP, handOut);
        final ChangeFilter filter = new ChangeFilter(Where.parse("group = 0"));
        final long lease = System.currentTimeMillis() + 60_000;

        push.control(TOPIC, filter, new int[]{0}, new int[]{3}, new long[]{0}, new int[0], new int[0], lease);
        push.control(TOPIC, filter, new int[]{0}, new int[]{2}, new long[]{0}, new int[0], new int[0], lease);
        push.control(TOPIC, null, new int[0], new int[0], new long[0], new int[]{0}, new int[]{1}, lease);
        map.set(1L, new Version(0, 1));

        await().atMost(Duration.ofSeconds(10)).until(() -> !changesOf(pushed, 3).stream().filter(m -> m.size() > 0).toList().isEmpty());
        assertThat(pushed.stream().filter(m -> m.kind() == PushMessage.CHANGES && m.generation() != 3).toList())
                .as("changes pushed under a stale attachment").isEmpty();
    }

    private static List<PushMessage> changesOf(final List<PushMessage> pushed, final int generation) {
        return pushed.stream().filter(m -> m.kind() == PushMessage.CHANGES && m.generation() == generation).toList();
    }

    private static List<PushMessage> flat(final PushMessage message) {
        return message.kind() == PushMessage.BUNDLE ? List.of(message.bundled()) : List.of(message);
    }

    /** The map's journal, whose answers are held back between {@link #hold} and {@link #release}. */
    private static final class HeldJournal implements EventJournalReader<EventJournalMapEvent<Object, Object>> {
        private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
        private volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);

        @SuppressWarnings("unchecked")
        HeldJournal(final IMap<?, ?> map) {
            this.journal = (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) map;
        }

        void hold() {
            gate = new CompletableFuture<>();
        }

        void release() {
            gate.complete(null);
        }

        @Override
        public CompletionStage<EventJournalInitialSubscriberState> subscribeToEventJournal(final int partitionId) {
            return journal.subscribeToEventJournal(partitionId);
        }

        @Override
        public <T> CompletionStage<ReadResultSet<T>> readFromEventJournal(final long startSequence, final int minSize, final int maxSize,
                                                                          final int partitionId,
                                                                          final Predicate<? super EventJournalMapEvent<Object, Object>> predicate,
                                                                          final Function<? super EventJournalMapEvent<Object, Object>, ? extends T> projection) {
            final CompletableFuture<ReadResultSet<T>> answer = journal.<T>readFromEventJournal(startSequence, minSize, maxSize, partitionId,
                    predicate, projection).toCompletableFuture();
            return answer.thenCombine(gate, (read, open) -> read);
        }
    }
}
