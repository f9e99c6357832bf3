package io.streamgrid.perf.bench;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.map.IMap;

import java.util.HashMap;
import java.util.Map;

/**
 * The plain-Jet references' map writer: each batch coalesced by key and written with one
 * synchronous {@code putAll}, one processor per member — what our state writer does. Not
 * {@code Sinks.map}: it keeps several {@code putAllAsync} in flight, which may apply two writes of
 * one key out of order (hazelcast-jet#2299); with it the enrichment benchmark's serving map kept an
 * older value for 1–2 users in most runs, failing its oracle check.
 */
final class OrderedMapSink {
    private OrderedMapSink() {
    }

    static <K, V> Sink<V> of(final String map, final FunctionEx<V, K> keyFn) {
        return SinkBuilder.sinkBuilder("ordered-map-sink", c -> new Buffer<K, V>(c.hazelcastInstance().getMap(map), keyFn))
                .<V>receiveFn(Buffer::add)
                .flushFn(Buffer::flush)
                .preferredLocalParallelism(1)
                .build();
    }

    /** Writes accumulated per batch, the last of a key winning. */
    private static final class Buffer<K, V> {
        private final IMap<K, V> map;
        private final FunctionEx<V, K> keyFn;
        private final Map<K, V> pending = new HashMap<>();

        Buffer(final IMap<K, V> map, final FunctionEx<V, K> keyFn) {
            this.map = map;
            this.keyFn = keyFn;
        }

        void add(final V value) {
            pending.put(keyFn.apply(value), value);
        }

        void flush() {
            if (!pending.isEmpty()) {
                map.putAll(pending);
                pending.clear();
            }
        }
    }
}
