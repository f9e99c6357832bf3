package io.streamgrid.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Linux network namespace of a test's own ({@code ip netns}, needs root): its loopback and any
 * addresses the test adds exist nowhere else, so traffic to them never leaves it. Processes started
 * in it are stopped by PID when it closes; then the namespace is deleted.
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final String BRIDGE = "sgbr0";
    private static final AtomicInteger VETH_PAIRS = new AtomicInteger();
    private final String name;
    private final List<Process> processes = new ArrayList<>();

    private NetworkNamespace(final String name) {
        this.name = name;
    }

    /** Whether this machine lets the test create namespaces (root and iproute2), with the reason if not. */
    public static String unavailableReason() {
        final String probe = "sg-probe-" + ProcessHandle.current().pid();
        final Result added = run(List.of("ip", "netns", "add", probe));
        if (added.code() != 0) {
            return "cannot create a network namespace (needs root and iproute2): " + added.output().strip();
        }
        run(List.of("ip", "netns", "del", probe));
        return null;
    }

    /** Creates {@code sg-<prefix>-<pid>} with its loopback up. */
    public static NetworkNamespace create(final String prefix) {
        final NetworkNamespace namespace = new NetworkNamespace("sg-" + prefix + "-" + ProcessHandle.current().pid());
        run(List.of("ip", "netns", "del", namespace.name)); // a leftover of a killed run
        namespace.check(run(List.of("ip", "netns", "add", namespace.name)), "create");
        namespace.exec("ip", "link", "set", "lo", "up");
        return namespace;
    }

    public String name() {
        return name;
    }

    /** Runs a command inside the namespace and fails when it does. */
    public String exec(final String... command) {
        return check(tryExec(command), String.join(" ", command));
    }

    /** Runs a command inside the namespace; the caller judges the exit code. */
    public Result tryExec(final String... command) {
        final List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(List.of(command));
        return run(full);
    }

    /**
     * Adds {@code cidr} to the namespace's loopback device: an address of "the host" outside
     * 127.0.0.0/8 that exists only inside the namespace (no dummy or veth device needed).
     */
    public void addHostAddress(final String cidr) {
        exec("ip", "addr", "add", cidr, "dev", "lo");
    }

    /**
     * Links this namespace and {@code other} with a veth pair, as two hosts on one network: this
     * end gets {@code cidr}, the other end {@code otherCidr} (same subnet). Gone with the namespaces.
     */
    public void link(final NetworkNamespace other, final String cidr, final String otherCidr) {
        final String here = "sgv" + (ProcessHandle.current().pid() % 100_000) + "a" + Math.abs(name.hashCode() % 100);
        final String there = "sgv" + (ProcessHandle.current().pid() % 100_000) + "b" + Math.abs(other.name.hashCode() % 100);
        vethPair(here, other, there);
        exec("ip", "addr", "add", cidr, "dev", here);
        exec("ip", "link", "set", here, "up");
        other.exec("ip", "addr", "add", otherCidr, "dev", there);
        other.exec("ip", "link", "set", there, "up");
    }

    /** Makes this namespace a network switch: a bridge that {@link #plugInto} connects other namespaces to, as hosts on one LAN. */
    public void addBridge() {
        exec("ip", "link", "add", BRIDGE, "type", "bridge");
        exec("ip", "link", "set", BRIDGE, "up");
    }

    /**
     * Connects this namespace to the bridge of {@code lan} ({@link #addBridge}) by a veth pair: a host
     * on that network with address {@code cidr}. Gone with the namespaces.
     */
    public void plugInto(final NetworkNamespace lan, final String cidr) {
        final int n = VETH_PAIRS.incrementAndGet();
        final String here = "sgh" + (ProcessHandle.current().pid() % 100_000) + "x" + n;
        final String there = "sgh" + (ProcessHandle.current().pid() % 100_000) + "y" + n;
        vethPair(here, lan, there);
        lan.exec("ip", "link", "set", there, "master", BRIDGE);
        lan.exec("ip", "link", "set", there, "up");
        exec("ip", "addr", "add", cidr, "dev", here);
        exec("ip", "link", "set", here, "up");
    }

    /**
     * Connects the root namespace — this JVM's — to this namespace's bridge ({@link #addBridge}) by a
     * veth pair, with address {@code cidr} at the root end: the test process becomes a host of the
     * LAN and can reach the others itself. Returns the root end's name for {@link #unplugRoot}; the
     * pair dies with this namespace in any case.
     */
    public String plugRootIn(final String cidr) {
        final String root = "sgr" + (ProcessHandle.current().pid() % 100_000);
        final String there = "sgR" + (ProcessHandle.current().pid() % 100_000);
        run(List.of("ip", "link", "del", root)); // a leftover of a killed run
        check(run(List.of("ip", "link", "add", root, "type", "veth", "peer", "name", there)), "add a veth pair");
        check(run(List.of("ip", "link", "set", there, "netns", name)), "move " + there);
        exec("ip", "link", "set", there, "master", BRIDGE);
        exec("ip", "link", "set", there, "up");
        check(run(List.of("ip", "addr", "add", cidr, "dev", root)), "address " + root);
        check(run(List.of("ip", "link", "set", root, "up")), "bring up " + root);
        return root;
    }

    /** Deletes the root end of a {@link #plugRootIn} link (and with it the pair); nothing when it is gone. */
    public static void unplugRoot(final String root) {
        run(List.of("ip", "link", "del", root));
    }

    /** A veth pair: end {@code here} in this namespace, end {@code there} in {@code other}; addresses and state are the caller's. */
    private void vethPair(final String here, final NetworkNamespace other, final String there) {
        check(run(List.of("ip", "link", "add", here, "type", "veth", "peer", "name", there)), "add a veth pair");
        check(run(List.of("ip", "link", "set", here, "netns", name)), "move " + here);
        check(run(List.of("ip", "link", "set", there, "netns", other.name)), "move " + there);
    }

    /** SIGKILL to every process started in this namespace and their children, as when the host dies; the namespace stays. */
    public void killProcesses() {
        for (final Process process : processes) {
            ProcessTree.kill(process.toHandle());
        }
    }

    /** True when a TCP connection to {@code host:port} is accepted inside the namespace within 2 s. */
    public boolean canConnect(final String host, final int port) {
        return tryExec("timeout", "2", "bash", "-c", "exec 3<>/dev/tcp/" + host + "/" + port).code() == 0;
    }

    /** Starts {@code command} inside the namespace, output to {@code log}; stopped by PID on {@link #close()}. */
    public Process start(final List<String> command, final Path log) {
        final List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(command);
        try {
            final Process process = new ProcessBuilder(full).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            processes.add(process);
            return process;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + full, e);
        }
    }

    @Override
    public void close() {
        for (final Process process : processes) {
            ProcessTree.kill(process.toHandle());
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        run(List.of("ip", "netns", "del", name));
    }

    private String check(final Result result, final String what) {
        if (result.code() != 0) {
            throw new IllegalStateException("in network namespace " + name + ": '" + what + "' exited " + result.code()
                    + ": " + result.output().strip());
        }
        return result.output();
    }

    /** Exit code and merged output of a command. */
    public record Result(int code, String output) {
    }

    private static Result run(final List<String> command) {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, output + " (timed out)");
            }
            return new Result(process.exitValue(), output);
        } catch (final IOException e) {
            return new Result(-1, e.toString());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
