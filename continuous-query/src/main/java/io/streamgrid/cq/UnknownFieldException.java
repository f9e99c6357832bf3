package io.streamgrid.cq;

/**
 * A {@link Where} names a field that the value's schema (a record's components, a Compact value's
 * fields) does not have — most often a typo. Thrown where the predicate is evaluated: by a query
 * or subscription on the members, reaching the caller.
 */
public class UnknownFieldException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnknownFieldException(final String message) {
        super(message);
    }
}
