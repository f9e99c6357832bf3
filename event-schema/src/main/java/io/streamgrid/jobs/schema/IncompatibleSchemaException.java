package io.streamgrid.jobs.schema;

/** A schema change that records already written could not be read under; the message names the field. */
public final class IncompatibleSchemaException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public IncompatibleSchemaException(final String message) {
        super(message);
    }
}
