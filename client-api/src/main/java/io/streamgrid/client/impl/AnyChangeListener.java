package io.streamgrid.client.impl;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;

/**
 * A map listener that hears every kind of change the same way: one call per entry changed
 * (added, updated, removed, expired, evicted, merged) and one when the whole map was cleared or
 * evicted. The doorbells of continuous queries (the client's {@link FeedDoorbell}, a member's push)
 * only need "something changed here".
 */
public abstract class AnyChangeListener implements EntryAddedListener<Object, Object>, EntryUpdatedListener<Object, Object>,
        EntryRemovedListener<Object, Object>, EntryExpiredListener<Object, Object>, EntryEvictedListener<Object, Object>,
        EntryMergedListener<Object, Object>, MapClearedListener, MapEvictedListener {

    /** An entry changed. */
    protected abstract void changed(EntryEvent<Object, Object> event);

    /** Every entry may have changed (the map was cleared or evicted). */
    protected abstract void allChanged();

    @Override
    public final void entryAdded(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void entryUpdated(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void entryRemoved(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void entryExpired(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void entryEvicted(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void entryMerged(final EntryEvent<Object, Object> event) {
        changed(event);
    }

    @Override
    public final void mapCleared(final MapEvent event) {
        allChanged();
    }

    @Override
    public final void mapEvicted(final MapEvent event) {
        allChanged();
    }
}
