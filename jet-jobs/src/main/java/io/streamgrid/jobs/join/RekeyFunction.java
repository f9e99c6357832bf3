package io.streamgrid.jobs.join;

import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

/** Copies each event its filter keeps into an event of another schema with the same fields and emits it: a re-key through a log. */
final class RekeyFunction implements KeyedFunction<Void> {
    private final EventSchema to;
    /** For each field of {@code to}, its index in the source schema. */
    private final int[] sourceIndexes;
    private final EventFilter keep;

    RekeyFunction(final EventSchema from, final EventSchema to, final EventFilter keep) {
        this.to = to;
        this.keep = keep;
        this.sourceIndexes = to.fields().stream().mapToInt(field -> from.layout().indexOf(field.name())).toArray();
    }

    @Override
    public void onEvent(final SchemaRecord event, final KeyedContext<Void> context) {
        if (!keep.keep(event)) {
            return;
        }
        final SchemaRecord copy = context.newEvent(to);
        for (int i = 0; i < sourceIndexes.length; i++) {
            copy.copyField(i, event, sourceIndexes[i]);
        }
        context.emit(copy);
    }
}
