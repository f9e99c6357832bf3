package io.streamgrid.jobs.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Refuses an ingest-log directory on a network file system. Chronicle Queue maps its files into
 * memory and coordinates appenders and tailers through them; across hosts on NFS, SMB and the like
 * that coordination does not hold (Chronicle does not support it), so records can be lost or
 * misread. One host per log until the log is replicated.
 */
public final class LocalFileSystemCheck {
    /** File-system types (as {@link java.nio.file.FileStore#type()} reports them on Linux) that are shared over a network. */
    static final Set<String> NETWORK_TYPES = Set.of("nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "9p",
            "afs", "ncpfs", "coda", "sshfs", "fuse.sshfs", "glusterfs", "fuse.glusterfs", "ceph", "fuse.ceph", "cephfs",
            "lustre", "gpfs", "beegfs", "davfs", "fuse.davfs", "fuse.s3fs", "fuse.rclone", "ocfs2", "gfs2");

    private LocalFileSystemCheck() {
    }

    /**
     * Throws when {@code dir} (or, while it does not exist yet, its nearest existing parent) is on a
     * network file system.
     *
     * @param overrideSetting the setting that allows it anyway, named in the message
     * @throws IllegalArgumentException naming the directory, the file-system type and the override
     */
    public static void refuseNetworkFileSystem(final Path dir, final String overrideSetting) {
        refuseNetworkFileSystem(dir, overrideSetting, LocalFileSystemCheck::typeOf);
    }

    static void refuseNetworkFileSystem(final Path dir, final String overrideSetting, final Function<Path, String> typeOfExisting) {
        Path existing = dir.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return;
        }
        final String type = typeOfExisting.apply(existing);
        if (type != null && NETWORK_TYPES.contains(type.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("ingest directory " + dir + " is on a network file system (" + type
                    + "): Chronicle Queue does not support sharing a log across hosts that way, records could be lost; "
                    + "use a local directory (one host per log), or set " + overrideSetting + ": true if only this one "
                    + "host ever opens the log");
        }
    }

    private static String typeOf(final Path existing) {
        try {
            return Files.getFileStore(existing).type();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot tell the file system of " + existing, e);
        }
    }
}
