package io.streamgrid.cluster;

import io.streamgrid.node.ConfigException;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A cluster started by {@code streamgrid cluster start}, whose members outlive the command: its
 * name and each member's PID and port, kept in {@value #STATE_FILE} in the work directory so that
 * {@code cluster status} and {@code cluster stop} find the members later — by PID, checked against
 * the process's command line so that a reused PID is never signalled.
 */
public record DetachedCluster(String clusterName, List<Member> members) {
    public static final String STATE_FILE = "cluster.properties";

    /** One member process: its PID and port on 127.0.0.1. */
    public record Member(long pid, int port) {
        public String address() {
            return LocalCluster.HOST + ":" + port;
        }

        /** The live process, if this PID still runs a StreamGrid member on this port. */
        public Optional<ProcessHandle> process() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(p -> commandLine(p).contains(LocalCluster.MEMBER_MARKER) && commandLine(p).contains(":" + port + " "));
        }

        /** The full command line: /proc where there is one (ProcessHandle.Info truncates long ones). */
        private static String commandLine(final ProcessHandle process) {
            try {
                final byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
                return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
            } catch (final IOException | UnsupportedOperationException noProc) {
                return process.info().commandLine().orElse("") + " ";
            }
        }

        public Optional<MemberHealth> health() {
            return MemberHealth.probe(LocalCluster.HOST, port);
        }
    }

    public DetachedCluster {
        members = List.copyOf(members);
    }

    public static DetachedCluster of(final LocalCluster cluster) {
        final List<Member> members = new ArrayList<>();
        for (final MemberProcess member : cluster.members()) {
            members.add(new Member(member.pid(), member.port()));
        }
        return new DetachedCluster(cluster.clusterName(), members);
    }

    public void save(final Path workDir) {
        final Properties properties = new Properties();
        properties.setProperty("cluster-name", clusterName);
        for (int i = 0; i < members.size(); i++) {
            properties.setProperty("member." + (i + 1), members.get(i).pid() + "@" + members.get(i).port());
        }
        try (Writer out = Files.newBufferedWriter(workDir.resolve(STATE_FILE))) {
            properties.store(out, "members started by `streamgrid cluster start`: pid@port");
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + workDir.resolve(STATE_FILE), e);
        }
    }

    /** The cluster recorded in {@code workDir}, or empty when none was started there. */
    public static Optional<DetachedCluster> load(final Path workDir) {
        final Path file = workDir.resolve(STATE_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            properties.load(in);
        } catch (final IOException e) {
            throw new ConfigException("cannot read " + file + " (" + e.getMessage() + "): delete it if no cluster runs", e);
        }
        final List<Member> members = new ArrayList<>();
        for (int i = 1; properties.containsKey("member." + i); i++) {
            final String[] pidAtPort = properties.getProperty("member." + i).split("@");
            try {
                members.add(new Member(Long.parseLong(pidAtPort[0]), Integer.parseInt(pidAtPort[1])));
            } catch (final RuntimeException e) {
                throw new ConfigException("corrupt line member." + i + " in " + file + ": delete the file if no cluster runs", e);
            }
        }
        return Optional.of(new DetachedCluster(properties.getProperty("cluster-name", "?"), members));
    }

    public List<Member> aliveMembers() {
        return members.stream().filter(m -> m.process().isPresent()).toList();
    }

    /**
     * Stops every recorded member that still runs: SIGTERM to all (a whole-cluster stop needs no
     * migration, so they go together; each writes its pending write-behind changes first), SIGKILL
     * to a member still running after {@code grace}. Says every 15 s what it waits for. Removes the
     * state file. Returns the members that did not stop on their own — killed, or not even by
     * SIGKILL — each described for the user; empty when every member shut down gracefully.
     */
    public List<String> stop(final Path workDir, final Duration grace, final Consumer<String> progress) {
        final List<ProcessHandle> running = new ArrayList<>();
        for (final Member member : members) {
            member.process().ifPresent(running::add);
        }
        running.forEach(ProcessHandle::destroy);
        final long start = System.nanoTime();
        final List<String> notGraceful = new ArrayList<>();
        for (final ProcessHandle process : running) {
            final Duration left = grace.minusNanos(System.nanoTime() - start);
            final ProcessTree.Outcome outcome = ProcessTree.terminate(process, waitingSaying(process, left, grace, start, progress));
            switch (outcome) {
                case EXITED -> progress.accept("member pid " + process.pid() + " stopped");
                case KILLED -> {
                    final String what = "member pid " + process.pid() + " did not finish its graceful shutdown within "
                            + grace.toSeconds() + " s of SIGTERM and was killed with SIGKILL: changes it had not written yet "
                            + "(write-behind) may be lost (see its log; --grace-seconds waits longer)";
                    progress.accept(what);
                    notGraceful.add(what);
                }
                case STILL_RUNNING -> {
                    final String what = "member pid " + process.pid() + " could not be stopped, even by SIGKILL";
                    progress.accept(what);
                    notGraceful.add(what);
                }
            }
        }
        try {
            Files.deleteIfExists(workDir.resolve(STATE_FILE));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete " + workDir.resolve(STATE_FILE), e);
        }
        return notGraceful;
    }

    /** Waits up to {@code left} for {@code process} to exit, saying every 15 s that it waits; returns what is left then (zero or more). */
    private static Duration waitingSaying(final ProcessHandle process, final Duration left, final Duration grace, final long start,
                                          final Consumer<String> progress) {
        final long deadline = System.nanoTime() + Math.max(0, left.toNanos());
        while (process.isAlive()) {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            try {
                process.onExit().get(Math.min(remaining, TimeUnit.SECONDS.toNanos(15)), TimeUnit.NANOSECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (final ExecutionException | TimeoutException stillRunning) {
                if (process.isAlive() && deadline - System.nanoTime() > 0) {
                    progress.accept("waiting for member pid " + process.pid() + " to finish its graceful shutdown (migrations, "
                            + "write-behind flush): " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s of at most "
                            + grace.toSeconds());
                }
            }
        }
        return Duration.ZERO;
    }
}
