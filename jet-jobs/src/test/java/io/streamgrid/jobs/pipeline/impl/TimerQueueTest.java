package io.streamgrid.jobs.pipeline.impl;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: 200,000 random operations on 500 keys — register a timer (deduplicated per
 * key and time), delete one, or fire everything up to a moving watermark — against a TreeSet of
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
            final int choice = random.nextInt(10);
            if (choice < 6) {
                final long time = watermark + random.nextInt(1_000);
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
                }
            } else {
                watermark += random.nextInt(50);
                while (queue.size() > 0 && queue.peekTime() <= watermark) {
                    final Timer expected = oracle.pollFirst();
                    final KeyEntry<?> top = queue.peekEntry();
                    assertThat(new long[] {queue.peekTime(), top.longKey}).containsExactly(expected.time(), expected.key());
                    queue.remove(top, queue.peekSlot());
                    fired++;
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
}
