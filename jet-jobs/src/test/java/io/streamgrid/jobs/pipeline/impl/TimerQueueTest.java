package io.streamgrid.jobs.pipeline.impl;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: 200,000 random operations on 500 keys — register a timer (deduplicated per
 * key and time), delete one, re-arm one at its own time, look at the front, or fire everything up
 * to a moving watermark (a fired key sometimes registering another timer, as callbacks do, maybe at
 * the very time firing) — against a TreeSet of
 * (time, sequence, key) as the oracle. Every firing must come in the oracle's order, and the
 * entries' own timer lists must always hold exactly the oracle's timers.
 */
class TimerQueueTest {
    private record Timer(long time, long sequence, int key) implements Comparable<Timer> {
        @Override
        public int compareTo(final Timer other) {
            return time != other.time ? Long.compare(time, other.time) : Long.compare(sequence, other.sequence);
        }
    }

    @Test
    void when_timersRegisteredDeletedAndFiredAtRandom_then_theyFireInTimeAndRegistrationOrder() {
        final SplittableRandom random = new SplittableRandom(12);
        final TimerQueue queue = new TimerQueue(false);
        final List<KeyEntry<Object>> entries = new ArrayList<>();
        for (int k = 0; k < 500; k++) {
            entries.add(new KeyEntry<>(k));
        }
        final TreeSet<Timer> oracle = new TreeSet<>();
        long sequence = 0;
        long watermark = 0;
        int fired = 0;
        for (int op = 0; op < 200_000; op++) {
            final int key = random.nextInt(entries.size());
            final KeyEntry<Object> entry = entries.get(key);
            final int choice = random.nextInt(12);
            if (choice < 6) {
                final long time = watermark - 3 + random.nextInt(40); // few distinct times: buckets of many keys
                if (KeyEntry.find(entry.timers, entry.timerCount, time) < 0) {
                    queue.add(entry, time, sequence);
                    oracle.add(new Timer(time, sequence, key));
                    sequence++;
                }
            } else if (choice < 9) {
                if (entry.timerCount > 0) {
                    final int slot = random.nextInt(entry.timerCount);
                    final long time = entry.timers[KeyEntry.WIDTH * slot];
                    oracle.removeIf(t -> t.key() == key && t.time() == time);
                    queue.remove(entry, slot);
                    if (choice == 8) { // re-armed at the same time: now the newest of its time
                        queue.add(entry, time, sequence);
                        oracle.add(new Timer(time, sequence, key));
                        sequence++;
                    }
                }
            } else if (choice == 9) {
                if (queue.size() > 0) { // a look at the front between changes (it sorts the front's bucket)
                    assertThat(queue.peekTime()).isEqualTo(oracle.first().time());
                }
            } else {
                watermark += random.nextInt(4);
                while (queue.hasDue(watermark)) {
                    final Timer expected = oracle.pollFirst();
                    final long time = queue.peekTime();
                    final KeyEntry<?> top = queue.pollEntry();
                    assertThat(new long[] {time, top.longKey}).containsExactly(expected.time(), expected.key());
                    fired++;
                    if (random.nextInt(4) == 0) { // as a timer callback may: a new timer, maybe at the time firing now
                        final long again = time + random.nextInt(3);
                        if (KeyEntry.find(top.timers, top.timerCount, again) < 0) {
                            queue.add(top, again, sequence);
                            oracle.add(new Timer(again, sequence, (int) top.longKey));
                            sequence++;
                        }
                    }
                }
                assertThat(oracle.isEmpty() || oracle.first().time() > watermark).isTrue();
            }
            assertThat(queue.size()).isEqualTo(oracle.size());
        }
        for (int k = 0; k < entries.size(); k++) {
            final int key = k;
            final TreeSet<Long> held = new TreeSet<>();
            for (int slot = 0; slot < entries.get(k).timerCount; slot++) {
                held.add(entries.get(k).timers[KeyEntry.WIDTH * slot]);
            }
            assertThat(held).isEqualTo(new TreeSet<>(oracle.stream().filter(t -> t.key() == key).map(Timer::time).toList()));
        }
        assertThat(fired).as("timers fired").isGreaterThan(10_000);
    }

    /**
     * The front bucket, once looked at, is kept sorted: a key that deletes its timer there and
     * registers it again at the same time must now fire after the others of that time, and a key
     * whose node moves into a sorted bucket must still fire in its timer's order.
     */
    @Test
    void when_aTimerIsReArmedAtItsOwnTimeWhileItsTimeIsNext_then_itFiresLastOfThatTime() {
        final TimerQueue queue = new TimerQueue(false);
        final KeyEntry<Object> a = new KeyEntry<>(1);
        final KeyEntry<Object> b = new KeyEntry<>(2);
        queue.add(a, 100, 0);
        queue.add(a, 105, 1);
        queue.add(b, 100, 2);
        assertThat(queue.peekTime()).isEqualTo(100); // sorts the bucket of 100: a, b
        queue.remove(a, queue.slotOf(a, 100));
        queue.add(a, 100, 3);
        assertThat(queue.pollEntry()).isSameAs(b);
        assertThat(queue.pollEntry()).isSameAs(a);
        assertThat(queue.peekTime()).isEqualTo(105);
    }

    @Test
    void when_aNodeMovesBehindASortedBucketOutOfOrder_then_theBucketIsSortedAgain() {
        final TimerQueue queue = new TimerQueue(false);
        final KeyEntry<Object> a = new KeyEntry<>(1);
        final KeyEntry<Object> b = new KeyEntry<>(2);
        queue.add(a, 200, 0);
        queue.add(b, 200, 1);
        assertThat(queue.peekTime()).isEqualTo(200); // sorts the bucket of 200: a, b
        queue.add(a, 150, 2); // a's node moves to 150
        queue.remove(a, queue.slotOf(a, 150)); // and stays there, before a's timer at 200
        // Looking at 150 moves a's node back to 200, behind b, though a's timer there is older.
        assertThat(queue.peekTime()).isEqualTo(200);
        assertThat(queue.pollEntry()).isSameAs(a);
        assertThat(queue.pollEntry()).isSameAs(b);
        assertThat(queue.size()).isZero();
    }

    /**
     * A pattern job's shape: many keys wait for a far time (their expiry) while one key after the
     * other registers a timer that is due at once and fires. The far bucket must not be sorted
     * again after each firing (it was: 13x slower pattern benchmark) — only once, when it is due.
     */
    @Test
    void when_nearTimersFireOneByOneBeforeACrowdedFarTime_then_theFarBucketIsSortedOnlyWhenDue() {
        final TimerQueue queue = new TimerQueue(false);
        long sequence = 0;
        final List<KeyEntry<Object>> waiting = new ArrayList<>();
        for (int k = 0; k < 1_000; k++) {
            final KeyEntry<Object> entry = new KeyEntry<>(k);
            queue.add(entry, 1_000_000, sequence++);
            waiting.add(entry);
        }
        for (int t = 0; t < 10_000; t++) {
            final KeyEntry<Object> entry = waiting.get(t % waiting.size());
            queue.add(entry, t, sequence++); // due at once: the watermark is at t
            assertThat(queue.hasDue(t)).isTrue();
            assertThat(queue.peekTime()).isEqualTo(t);
            assertThat(queue.pollEntry()).isSameAs(entry);
            assertThat(queue.hasDue(t)).isFalse();
        }
        assertThat(queue.preparedNodes()).as("nodes examined while sorting buckets").isLessThan(100_000);
        final List<Long> fired = new ArrayList<>();
        while (queue.hasDue(1_000_000)) {
            fired.add(queue.pollEntry().longKey);
        }
        assertThat(fired).hasSize(1_000).isSorted(); // registration order: keys 0..999
    }

    /**
     * A key whose timer moves later on every event (an inactivity timeout) costs the queue nothing
     * until the timer's time comes; a key whose timer moves earlier each time leaves stale nodes
     * behind, which must not pile up. Both a million times, with other keys' timers around, which
     * must still fire in order.
     */
    @Test
    void when_aTimerMovesAMillionTimes_then_nodesStayFewAndOrderHolds() {
        final TimerQueue queue = new TimerQueue(false);
        final KeyEntry<Object> later = new KeyEntry<>(1);
        final KeyEntry<Object> earlier = new KeyEntry<>(2);
        final KeyEntry<Object> first = new KeyEntry<>(3);
        final KeyEntry<Object> last = new KeyEntry<>(4);
        long sequence = 0;
        queue.add(first, 1_000, sequence++);
        queue.add(last, 90_000_000, sequence++);
        long laterTime = 86_400_000;
        long earlierTime = 86_400_000 - 1;
        queue.add(later, laterTime, sequence++);
        queue.add(earlier, earlierTime, sequence++);
        int mostNodes = 0;
        for (int i = 0; i < 1_000_000; i++) {
            queue.remove(later, queue.slotOf(later, laterTime));
            queue.add(later, ++laterTime, sequence++);
            queue.remove(earlier, queue.slotOf(earlier, earlierTime));
            queue.add(earlier, --earlierTime, sequence++);
            mostNodes = Math.max(mostNodes, queue.queuedNodes());
        }
        assertThat(queue.size()).isEqualTo(4);
        assertThat(mostNodes).as("nodes held at most, live and stale").isLessThan(5_000);
        final List<long[]> fired = new ArrayList<>();
        while (queue.size() > 0) {
            final long due = queue.peekTime();
            fired.add(new long[] {due, queue.pollEntry().longKey});
        }
        assertThat(fired).containsExactly(new long[] {1_000, 3}, new long[] {earlierTime, 2}, new long[] {laterTime, 1},
                new long[] {90_000_000, 4});
    }
}
