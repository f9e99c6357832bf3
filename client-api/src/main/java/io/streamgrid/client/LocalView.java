package io.streamgrid.client;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A client-side copy of a map's entries that match a predicate, kept current by a subscription.
 * Reads are local: a hash lookup, no network, no lock. Values are the objects the subscription
 * delivered; treat them as immutable.
 */
public interface LocalView extends AutoCloseable {
    /** The entry's value, or null if it does not match (or does not exist). */
    Object get(Object key);

    int size();

    void forEach(BiConsumer<Object, Object> action);

    /** Called after every change applied to the view, on the subscription's delivery thread. */
    void onChange(Consumer<Delta> hook);

    Subscription subscription();

    @Override
    void close();
}
