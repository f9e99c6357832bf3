package io.streamgrid.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A listener that keeps what a subscription delivered as a map (key → value), readable from the test's thread. */
final class ViewListener implements DeltaListener {
    final Map<Object, Object> view = new ConcurrentHashMap<>();

    @Override
    public void onSnapshot(final Map<Object, Object> entries) {
        view.putAll(entries);
    }

    @Override
    public void onDelta(final Delta delta) {
        if (delta.kind() == Delta.Kind.LEAVE) {
            view.remove(delta.key());
        } else {
            view.put(delta.key(), delta.value());
        }
    }
}
