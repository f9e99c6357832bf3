package io.streamgrid.node;

/**
 * A user's configuration mistake: an unreadable file, an unknown key, a value of the wrong type or
 * out of range. The message is one line that names the offending setting and value and says how
 * to fix it; callers print it without a stack trace and exit with code 2.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(final String message) {
        super(message);
    }

    public ConfigException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
