package io.streamgrid.sink.impl;

/**
 * One write of the sink: an upsert of a whole row ({@code values} in the table's column order) or a
 * delete of the row with a primary key ({@code values} = the primary-key values in key order).
 */
record RowWrite(Object[] values, boolean delete) {
    static RowWrite upsert(final Object[] row) {
        return new RowWrite(row, false);
    }

    static RowWrite deletion(final Object[] primaryKey) {
        return new RowWrite(primaryKey, true);
    }
}
