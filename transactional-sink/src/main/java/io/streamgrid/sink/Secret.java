package io.streamgrid.sink;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a secret (a password) is read, never the secret itself: {@code env:NAME} (an environment
 * variable of the process that opens the connection) or {@code file:/path} (the file's first line).
 * It is read only when a connection is opened, on the machine that opens it — a member, for a sink
 * or the state table — so it is never part of a job, a snapshot or a log line; {@link #toString()}
 * shows the source only.
 *
 * @param source {@code env:NAME} or {@code file:/path}
 */
public record Secret(String source) implements Serializable {
    public Secret {
        if (source == null || !(source.startsWith("env:") && source.length() > 4 || source.startsWith("file:") && source.length() > 5)) {
            throw new IllegalArgumentException("a secret is named by where it is read — env:NAME or file:/path — not given itself"
                    + " (found " + (source == null || source.isEmpty() ? "nothing" : "a value of another form") + ")");
        }
    }

    /**
     * The secret, read now.
     *
     * @throws IllegalStateException naming the source (never the secret) when the variable is not set
     *                               or the file cannot be read or is empty
     */
    public String reveal() {
        if (source.startsWith("env:")) {
            final String value = System.getenv(source.substring(4));
            if (value == null || value.isEmpty()) {
                throw new IllegalStateException("the environment variable " + source.substring(4) + " (" + source
                        + ") is not set in this process");
            }
            return value;
        }
        final Path file = Path.of(source.substring(5));
        try {
            final String first = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("");
            if (first.isEmpty()) {
                throw new IllegalStateException("the secret file " + file + " (" + source + ") is empty");
            }
            return first;
        } catch (final IOException e) {
            throw new IllegalStateException("cannot read the secret file " + file + " (" + source + "): "
                    + e.getClass().getSimpleName(), e);
        }
    }

    @Override
    public String toString() {
        return source;
    }
}
