package io.streamgrid.cluster;

import org.junit.jupiter.api.TestInfo;

import java.nio.file.Path;

/** A work directory per test under the module's build directory (set by surefire). */
public final class TestWorkDir {
    private TestWorkDir() {
    }

    public static Path of(final TestInfo test) {
        final String base = System.getProperty("streamgrid.test.workDir", "target/test-work");
        return Path.of(base, test.getTestClass().map(Class::getSimpleName).orElse("test"),
                test.getTestMethod().map(m -> m.getName()).orElse("method"));
    }
}
