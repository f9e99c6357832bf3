package io.streamgrid.sink;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Holds a sink's commits while {@code <dir>/pause} exists, for tests that break Cassandra between
 * prepare and commit across processes: a processor about to commit writes {@code <dir>/reached-<processor>}
 * (holding the transaction's id) and waits until the test deletes {@code pause}.
 *
 * @param dir a directory the test and the members share (a path on this host)
 */
public record FileCommitPause(String dir) implements BeforeCommit {
    @Override
    public void beforeCommit(final int processor, final String transaction) throws Exception {
        final Path barrier = Path.of(dir);
        if (Files.exists(barrier.resolve("pause"))) {
            Files.writeString(barrier.resolve("reached-" + processor), transaction);
            while (Files.exists(barrier.resolve("pause"))) {
                Thread.sleep(50);
            }
        }
    }
}
