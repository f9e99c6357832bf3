package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.schema.KeyPartitions;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class Utf8KeyMapTest {
    /**
     * Design of this test: 20,000 random keys of 0 to 27 bytes (half of them sharing their first
     * 16 bytes), added, looked up where they lie in a larger buffer, and every other one removed
     * (which shifts runs back), against a HashMap. Then a forced
     * collision: keys with one hash must still be told apart.
     */
    @Test
    void when_keysAddedLookedUpAndRemoved_then_theMapAgreesWithAHashMap() {
        final SplittableRandom random = new SplittableRandom(3);
        final Utf8KeyMap<String> map = new Utf8KeyMap<>();
        final Map<String, KeyEntry<String>> oracle = new HashMap<>();
        final List<String> keys = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            final String key = (random.nextBoolean() ? "same-prefix-16by" : "") + Long.toString(random.nextLong(), 36)
                    .substring(0, random.nextInt(1, 12));
            if (!oracle.containsKey(key)) {
                final KeyEntry<String> entry = entry(key);
                map.add(entry);
                oracle.put(key, entry);
                keys.add(key);
            }
        }
        oracle.put("", entry(""));
        map.add(oracle.get(""));
        keys.add("");
        for (final String key : keys) {
            assertThat(lookUp(map, key)).as(key).isSameAs(oracle.get(key));
        }
        assertThat(lookUp(map, "absent-key")).isNull();
        assertThat(lookUp(map, "same-prefix-16byX-absent")).isNull();
        for (int i = 0; i < keys.size(); i += 2) {
            map.remove(oracle.remove(keys.get(i)));
        }
        assertThat(map.size()).isEqualTo(oracle.size());
        for (final String key : keys) {
            assertThat(lookUp(map, key)).as(key).isSameAs(oracle.get(key));
        }
    }

    /**
     * A partition's keys share the low bits of their hash (the log picks the partition from them:
     * hash mod partitions), so a table indexed by those bits left most of its slots unused and the
     * rest in long probe runs. 50,000 keys of one partition of four: at the map's load of at most
     * one half, linear probing should displace a key by about a third of a slot on average
     * (0.78 with the low bits, 0.31 with the high ones).
     */
    @Test
    void when_keysAllBelongToOneLogPartition_then_probeRunsStayShort() {
        final Utf8KeyMap<String> map = new Utf8KeyMap<>();
        int added = 0;
        for (int i = 0; added < 50_000; i++) {
            final KeyEntry<String> entry = entry("user-" + i);
            if (Math.floorMod(entry.hash, 4L) == 0) {
                map.add(entry);
                added++;
            }
        }
        final double meanDisplacement = map.totalDisplacement() / (double) map.size();
        assertThat(meanDisplacement).as("mean slots between a key's home slot and its slot").isLessThan(0.5);
    }

    @Test
    void when_keysShareAHash_then_theirBytesTellThemApart() {
        final Utf8KeyMap<String> map = new Utf8KeyMap<>();
        final KeyEntry<String> a = new KeyEntry<>("a-long-key-beyond-sixteen-bytes-1".getBytes(StandardCharsets.UTF_8), "a", 42);
        final KeyEntry<String> b = new KeyEntry<>("a-long-key-beyond-sixteen-bytes-2".getBytes(StandardCharsets.UTF_8), "b", 42);
        final KeyEntry<String> c = new KeyEntry<>("short".getBytes(StandardCharsets.UTF_8), "c", 42);
        map.add(a);
        map.add(b);
        map.add(c);
        assertThat(lookUp(map, "a-long-key-beyond-sixteen-bytes-2", 42)).isSameAs(b);
        assertThat(lookUp(map, "a-long-key-beyond-sixteen-bytes-1", 42)).isSameAs(a);
        assertThat(lookUp(map, "short", 42)).isSameAs(c);
        map.remove(a);
        assertThat(lookUp(map, "a-long-key-beyond-sixteen-bytes-2", 42)).isSameAs(b);
        assertThat(lookUp(map, "short", 42)).isSameAs(c);
    }

    private static KeyEntry<String> entry(final String key) {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return new KeyEntry<>(bytes, key, KeyPartitions.stringKeyHash(new UnsafeBuffer(bytes), 0, bytes.length));
    }

    private static KeyEntry<String> lookUp(final Utf8KeyMap<String> map, final String key) {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return lookUp(map, key, KeyPartitions.stringKeyHash(new UnsafeBuffer(bytes), 0, bytes.length));
    }

    /** Looks the key up where it lies in a larger buffer, after other bytes and followed by more. */
    private static KeyEntry<String> lookUp(final Utf8KeyMap<String> map, final String key, final long hash) {
        final byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length + 40]);
        buffer.setMemory(0, buffer.capacity(), (byte) 'x');
        buffer.putBytes(7, bytes);
        return map.get(buffer, 7, bytes.length, hash);
    }
}
