package io.streamgrid.jobs.ingest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** No NFS can be mounted in a test here, so the file-system type is given; the real lookup runs on the temp dir. */
class LocalFileSystemCheckTest {
    @TempDir
    Path dir;

    @Test
    void when_dirIsOnNfs_then_refusedNamingTypeAndOverride() {
        final List<Path> asked = new ArrayList<>();
        assertThatThrownBy(() -> LocalFileSystemCheck.refuseNetworkFileSystem(dir.resolve("not/yet/there"), "ingest.allow-network-file-system",
                path -> {
                    asked.add(path);
                    return "nfs4";
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is on a network file system (nfs4)")
                .hasMessageContaining("set ingest.allow-network-file-system: true");
        assertThat(asked).as("a missing directory is judged by its nearest existing parent").containsExactly(dir);
    }

    @Test
    void when_dirIsLocal_then_accepted() {
        assertThatCode(() -> LocalFileSystemCheck.refuseNetworkFileSystem(dir, "x", path -> "ext4")).doesNotThrowAnyException();
        assertThatCode(() -> LocalFileSystemCheck.refuseNetworkFileSystem(dir, "x")).as("this machine's temp dir")
                .doesNotThrowAnyException();
    }
}
