package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * The key-typed functions as the runtime calls them: a {@link KeyedContext} is both key contexts,
 * so the call passes it on as the one the function takes — no object per call.
 */
final class TypedKeyFunctions {
    private TypedKeyFunctions() {
    }

    /** A {@link LongKeyedFunction} as a {@link KeyedFunction}. */
    record OfLong<S>(LongKeyedFunction<S> function) implements KeyedFunction<S> {
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

    /** A {@link StringKeyedFunction} as a {@link KeyedFunction}. */
    record OfString<S>(StringKeyedFunction<S> function) implements KeyedFunction<S> {
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
}
