package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * A {@link KeyTypedFunction} as the runtime calls it: a {@link KeyedContext} is both key contexts,
 * so each call passes it on as the one the function takes — no object per call.
 */
record KeyTypedFunctionAdapter<S>(KeyTypedFunction<S, ? super KeyedContext<S>> function) implements KeyedFunction<S> {
    @Override
    public void onEvent(final SchemaRecord event, final KeyedContext<S> context) {
        function.onEvent(event, context);
    }

    @Override
    public void onTimer(final long time, final KeyedContext<S> context) {
        function.onTimer(time, context);
    }

    @Override
    public void onProcessingTimer(final long wallClockMs, final KeyedContext<S> context) {
        function.onProcessingTimer(wallClockMs, context);
    }
}
