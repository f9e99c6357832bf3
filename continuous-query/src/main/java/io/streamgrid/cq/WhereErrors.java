package io.streamgrid.cq;

import com.hazelcast.client.UndefinedErrorCodeException;

/**
 * Recognises a {@link Where} predicate that is wrong for a map's values — a field the values do not have, a
 * comparison their type does not support — among the errors a query or a subscription meets:
 * on the members it is an {@link IllegalArgumentException} (such as
 * {@link UnknownFieldException}), which reaches a client as Hazelcast's
 * {@link UndefinedErrorCodeException} naming the original class. Trying again cannot help; the
 * user must change the predicate.
 */
public final class WhereErrors {
    private WhereErrors() {
    }

    /** The predicate's error within {@code error} (itself or a cause), or null when it holds none. */
    public static Throwable find(final Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return t;
            }
            if (t instanceof UndefinedErrorCodeException undefined) {
                final String origin = undefined.getOriginClassName();
                if (origin.equals(UnknownFieldException.class.getName())
                        || origin.equals(IllegalArgumentException.class.getName())) {
                    return t;
                }
            }
        }
        return null;
    }

    /** What is wrong, in one line, from an error {@link #find} returned. */
    public static String describe(final Throwable predicateError) {
        final String message = predicateError.getMessage() == null ? predicateError.toString() : predicateError.getMessage();
        // Hazelcast prefixes a member's exception with its class ("Class name: ..., Message: ...").
        final int at = message.indexOf("Message: ");
        return (at >= 0 ? message.substring(at + "Message: ".length()) : message).lines().findFirst().orElse("").trim();
    }
}
