package io.streamgrid.perf.jmh;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.LocalView;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.perf.bench.EmbeddedGrid;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JMH: one point read of a 10,000-entry state map through each path a reader can take. Run by
 * {@link io.streamgrid.perf.bench.PointReadsBench} in SampleTime mode (percentiles of single
 * calls). Keys are pre-boxed and visited in a shuffled order so no subject gets a cache-friendly
 * sequence; every subject reads the same keys and values.
 */
public class PointReads {
    static final String MAP = "state.bench-point-reads";
    static final int ENTRIES = 10_000;

    /** The value every subject holds under {@code key}: a one-minute window count of an IP. */
    static IpWindowCount valueOf(final long key) {
        return new IpWindowCount("10.0." + (key >> 8) + "." + (key & 255), key * 60_000, key * 60_000 + 60_000, key, 1, false);
    }

    /** The member, two clients (one plain, one with an OBJECT near cache), the view and the CHM. */
    @State(Scope.Benchmark)
    public static class Grid {
        EmbeddedGrid grid;
        StreamGridClient client;
        HazelcastInstance nearCacheClient;
        IMap<Long, IpWindowCount> memberMap;
        IMap<Long, IpWindowCount> clientMap;
        IMap<Long, IpWindowCount> nearCachedMap;
        LocalView view;

        @Setup(Level.Trial)
        public void start() throws Exception {
            grid = EmbeddedGrid.start(Files.createTempDirectory("streamgrid-point-reads"));
            memberMap = grid.member().getMap(MAP);
            for (long key = 0; key < ENTRIES; key++) {
                memberMap.set(key, valueOf(key));
            }
            client = StreamGridClient.connect(grid.clientSettings());
            clientMap = client.hazelcast().getMap(MAP);
            view = client.localView(MAP, "");
            final ClientConfig nearConfig = grid.clientSettings().withNearCache(MAP).toHazelcastConfig();
            nearConfig.getNearCacheConfig(MAP).setInMemoryFormat(InMemoryFormat.OBJECT);
            nearCacheClient = HazelcastClient.newHazelcastClient(nearConfig);
            nearCachedMap = nearCacheClient.getMap(MAP);
            for (long key = 0; key < ENTRIES; key++) {
                if (nearCachedMap.get(key) == null) {
                    throw new IllegalStateException("bug: key " + key + " missing while filling the near cache");
                }
            }
            if (view.size() != ENTRIES) {
                throw new IllegalStateException("the local view holds " + view.size() + " entries, expected " + ENTRIES);
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            if (view != null) {
                view.close();
            }
            if (nearCacheClient != null) {
                nearCacheClient.shutdown();
            }
            if (client != null) {
                client.close();
            }
            if (grid != null) {
                grid.close();
            }
        }
    }

    /** Pre-boxed keys in a seeded shuffled order; each thread its own cursor. */
    @State(Scope.Thread)
    public static class Keys {
        final Long[] keys = new Long[ENTRIES];
        int cursor;

        @Setup(Level.Trial)
        public void shuffle() {
            for (int i = 0; i < ENTRIES; i++) {
                keys[i] = (long) i;
            }
            final Random random = new Random(42);
            for (int i = ENTRIES - 1; i > 0; i--) {
                final int j = random.nextInt(i + 1);
                final Long swap = keys[i];
                keys[i] = keys[j];
                keys[j] = swap;
            }
        }

        Long next() {
            final int i = cursor;
            cursor = i + 1 == ENTRIES ? 0 : i + 1;
            return keys[i];
        }
    }

    /** The state a ConcurrentHashMap alone needs: no member is started for it. */
    @State(Scope.Benchmark)
    public static class PlainMap {
        final ConcurrentHashMap<Long, IpWindowCount> map = new ConcurrentHashMap<>();

        @Setup(Level.Trial)
        public void fill() {
            for (long key = 0; key < ENTRIES; key++) {
                map.put(key, valueOf(key));
            }
        }
    }

    @Benchmark
    public Object concurrentHashMap(final PlainMap map, final Keys keys) {
        return map.map.get(keys.next());
    }

    @Benchmark
    public Object localView(final Grid grid, final Keys keys) {
        return grid.view.get(keys.next());
    }

    @Benchmark
    public Object nearCache(final Grid grid, final Keys keys) {
        return grid.nearCachedMap.get(keys.next());
    }

    @Benchmark
    public Object embeddedMember(final Grid grid, final Keys keys) {
        return grid.memberMap.get(keys.next());
    }

    @Benchmark
    public Object client(final Grid grid, final Keys keys) {
        return grid.clientMap.get(keys.next());
    }
}
