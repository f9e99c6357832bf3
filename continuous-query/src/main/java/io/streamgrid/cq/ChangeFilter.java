package io.streamgrid.cq;

import com.hazelcast.function.PredicateEx;
import com.hazelcast.map.EventJournalMapEvent;

/**
 * Member-side filter of a map's event journal for one subscription: passes a change when the old
 * or the new value matches, so that entries entering and leaving the result both reach the
 * subscriber and nothing else crosses the network.
 */
public record ChangeFilter(Where where) implements PredicateEx<EventJournalMapEvent<Object, Object>> {
    @Override
    public boolean testEx(final EventJournalMapEvent<Object, Object> event) {
        return where.test(event.getNewValue()) || where.test(event.getOldValue());
    }
}
