package io.streamgrid.perf.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The machine and software a result was measured on.
 *
 * @param cores    available processors
 * @param memoryGb physical memory, or -1 when unknown
 * @param jvm      vendor, name and version of the JVM
 * @param os       name, version and architecture
 * @param versions library versions (from the parent pom, filtered into the perf jar)
 */
public record Environment(int cores, long memoryGb, String jvm, String os, Map<String, String> versions) {

    public static Environment current() {
        return new Environment(Runtime.getRuntime().availableProcessors(), physicalMemoryGb(),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                        + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                libraryVersions());
    }

    private static long physicalMemoryGb() {
        final java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return Math.round(sun.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return -1;
    }

    private static Map<String, String> libraryVersions() {
        final Properties properties = new Properties();
        try (InputStream in = Environment.class.getResourceAsStream("/streamgrid/perf/versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("bug: streamgrid/perf/versions.properties is missing from the perf jar");
            }
            properties.load(in);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final Map<String, String> versions = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> versions.put(name, properties.getProperty(name)));
        return versions;
    }
}
