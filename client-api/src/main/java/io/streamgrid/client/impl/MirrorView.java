package io.streamgrid.client.impl;

import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.LocalView;
import io.streamgrid.client.Subscription;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link LocalView}: the subscription's own result map (a ConcurrentHashMap, written only by the
 * subscription's delivery thread, read lock-free by any thread), so each entry is kept once and a
 * {@code get} is a hash lookup (nanoseconds). The subscription updates the map before it calls
 * this listener, so a hook sees the view with the change applied.
 */
final class MirrorView implements LocalView, DeltaListener {
    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();
    private final List<Consumer<Delta>> hooks = new CopyOnWriteArrayList<>();
    private Subscription subscription;

    /** The map the subscription keeps its result in: this view's entries. */
    Map<Object, Object> entries() {
        return entries;
    }

    void attach(final Subscription running) {
        this.subscription = running;
    }

    @Override
    public void onSnapshot(final Map<Object, Object> snapshot) {
        // The subscription put the snapshot into the entries already.
    }

    @Override
    public void onDelta(final Delta delta) {
        for (final Consumer<Delta> hook : hooks) {
            hook.accept(delta);
        }
    }

    @Override
    public Object get(final Object key) {
        return entries.get(key);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public void forEach(final BiConsumer<Object, Object> action) {
        entries.forEach(action);
    }

    @Override
    public void onChange(final Consumer<Delta> hook) {
        hooks.add(hook);
    }

    @Override
    public Subscription subscription() {
        return subscription;
    }

    @Override
    public void close() {
        subscription.close();
    }
}
