package io.streamgrid.cq;

/** Invalid predicate text; the message names the position (1-based column) and the token. */
public final class PredicateSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int position;
    private final String token;

    public PredicateSyntaxException(final String message, final int position, final String token) {
        super(message + " at position " + position + (token.isEmpty() ? " (end of text)" : ", token '" + token + "'"));
        this.position = position;
        this.token = token;
    }

    public int position() {
        return position;
    }

    public String token() {
        return token;
    }
}
