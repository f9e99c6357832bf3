package io.streamgrid.jobs.pipeline.impl;

/** One write to a named map; {@code value == null} removes the key. Travels on local edges only. */
record StateUpdate(String map, Object key, Object value) {
    /** Routes all updates of one key to one sink processor, so their order holds. */
    Object partitionKey() {
        return key;
    }
}
