package io.streamgrid.jobs.ingest;

import java.nio.file.Path;

/** What a load did: lines read, events appended, lines rejected and where they were written. */
public record LoadReport(long lines, long loaded, long rejected, Path rejectedFile) {
    @Override
    public String toString() {
        return lines + " lines, " + loaded + " events loaded, " + rejected + " rejected"
                + (rejected > 0 ? " (see " + rejectedFile + ")" : "");
    }
}
