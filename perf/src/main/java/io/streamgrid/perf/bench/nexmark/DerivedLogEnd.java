package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;

import java.nio.file.Path;

/**
 * Ends a log a job derives (a re-keyed copy) once it holds every record expected: appends its
 * end-of-stream record, so the job reading it emits everything still due — what a StreamGrid job
 * does not yet do itself for the logs it writes when its own input ends. A daemon thread that
 * looks at the log's record count every 2 ms.
 */
final class DerivedLogEnd {
    private final Thread thread;
    private volatile boolean stopped;

    private DerivedLogEnd(final Path dir, final EventSchema schema, final long expected) {
        this.thread = new Thread(() -> watch(dir, schema, expected), "end-of-" + schema.name());
        thread.setDaemon(true);
    }

    static DerivedLogEnd start(final Path dir, final EventSchema schema, final long expected) {
        final DerivedLogEnd end = new DerivedLogEnd(dir, schema, expected);
        end.thread.start();
        return end;
    }

    private void watch(final Path dir, final EventSchema schema, final long expected) {
        try (SchemaLog log = SchemaLog.openExisting(dir, schema)) {
            while (!stopped) {
                if (log.records() >= expected) {
                    log.appendEndOfStream();
                    return;
                }
                Thread.sleep(2);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops watching (the run ended) and waits for the thread. */
    void stop() {
        stopped = true;
        try {
            thread.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
