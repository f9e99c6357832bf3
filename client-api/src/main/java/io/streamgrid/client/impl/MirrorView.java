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
 * A {@link LocalView} over a ConcurrentHashMap: one writer (the subscription's delivery thread),
 * any number of lock-free readers; {@code get} is a hash lookup (nanoseconds).
 */
final class MirrorView implements LocalView, DeltaListener {
    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();
    private final List<Consumer<Delta>> hooks = new CopyOnWriteArrayList<>();
    private Subscription subscription;

    void attach(final Subscription running) {
        this.subscription = running;
    }

    @Override
    public void onSnapshot(final Map<Object, Object> snapshot) {
        entries.putAll(snapshot);
    }

    @Override
    public void onDelta(final Delta delta) {
        if (delta.kind() == Delta.Kind.LEAVE) {
            entries.remove(delta.key());
        } else {
            entries.put(delta.key(), delta.value());
        }
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
