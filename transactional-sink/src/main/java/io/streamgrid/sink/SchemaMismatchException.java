package io.streamgrid.sink;

/** An existing table does not fit what the sink writes; the message names the table and column. */
public final class SchemaMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SchemaMismatchException(final String message) {
        super(message);
    }
}
