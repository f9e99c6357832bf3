package io.streamgrid.jobs.ingest;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A load stopped at a line of its input that is not UTF-8 text — a binary file, or text in
 * another encoding. What it recorded of the lines before stays: a load of the file run again
 * resumes there, every line once.
 */
public final class InputNotTextException extends IOException {
    private static final long serialVersionUID = 1L;

    public InputNotTextException(final Path file, final long line, final Throwable cause) {
        super(file + " line " + line + " is not UTF-8 text" + (line == 1 ? " (a binary file?): nothing was loaded"
                : ": the load stopped there; once the file is UTF-8, run it again and it resumes where it stopped"), cause);
    }
}
