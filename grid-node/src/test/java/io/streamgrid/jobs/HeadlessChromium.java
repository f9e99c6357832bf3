package io.streamgrid.jobs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium}, headless, for the UI tests: loads a page, lets its scripts run, and
 * returns the resulting DOM or a screenshot. Network only to loopback: everything else goes to a
 * dead local proxy (loopback bypasses proxies), and Chromium's own background services are off.
 * Each run is a process tree started and stopped by PID.
 */
final class HeadlessChromium {
    private static final long TIMEOUT_SECONDS = 60;
    private final Path executable;
    private final Path profile;

    private HeadlessChromium(final Path executable, final Path profile) {
        this.executable = executable;
        this.profile = profile;
    }

    /** The browser on the PATH, with a profile directory under {@code workDir}; empty when none is installed. */
    static Optional<HeadlessChromium> find(final Path workDir) {
        final String path = System.getenv().getOrDefault("PATH", "");
        for (final String dir : path.split(File.pathSeparator)) {
            for (final String name : List.of("chromium", "chromium-browser")) {
                final Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(new HeadlessChromium(candidate, workDir.resolve("chromium-profile")));
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM after its scripts ran for {@code scriptMillis} of (virtual) time. */
    String dumpDom(final String url, final int scriptMillis) throws IOException, InterruptedException {
        return run(List.of("--virtual-time-budget=" + scriptMillis, "--dump-dom", url));
    }

    /** Saves a screenshot of the page at {@code width}x{@code height} to {@code png}. */
    void screenshot(final String url, final int scriptMillis, final Path png, final int width, final int height)
            throws IOException, InterruptedException {
        run(List.of("--virtual-time-budget=" + scriptMillis, "--window-size=" + width + "," + height,
                "--screenshot=" + png.toAbsolutePath(), url));
    }

    private String run(final List<String> args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(), "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
                "--disable-domain-reliability", "--no-pings", "--proxy-server=http://127.0.0.1:9"));
        command.addAll(args);
        final Path out = Files.createTempFile(profile.getParent(), "chromium-out", ".txt");
        final Process process = new ProcessBuilder(command).redirectErrorStream(false)
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("chromium exited with " + process.exitValue() + ": " + String.join(" ", command));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Files.deleteIfExists(out);
        }
    }
}
