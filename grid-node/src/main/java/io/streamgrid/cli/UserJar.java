package io.streamgrid.cli;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.node.ConfigException;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A user's job jar on the submitting machine: its class loaded and asked for the job, each way it
 * can go wrong a one-line {@link ConfigException} naming the fix.
 */
final class UserJar {
    private final Path jar;
    private final URLClassLoader loader;
    private final JobDefinition job;

    private UserJar(final Path jar, final URLClassLoader loader, final JobDefinition job) {
        this.jar = jar;
        this.loader = loader;
        this.job = job;
    }

    /** The job of {@code className} in {@code jar}, its entry point first passed through {@code configure} (the submission's parameters). */
    static UserJar load(final Path jar, final String className, final UnaryOperator<StreamGridJob> configure) {
        if (!Files.isRegularFile(jar)) {
            throw new ConfigException("--jar " + jar + ": no such file");
        }
        final URLClassLoader loader = new URLClassLoader(new URL[] {url(jar)}, UserJar.class.getClassLoader());
        final Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (final ClassNotFoundException | LinkageError e) {
            throw new ConfigException("class " + className + " is not in " + jar.getFileName()
                    + (e instanceof LinkageError ? " or cannot be loaded (" + e + ")" : "") + ": check --class and the jar");
        }
        if (!StreamGridJob.class.isAssignableFrom(type)) {
            throw new ConfigException("class " + className + " in " + jar.getFileName() + " is not a StreamGrid job: it must implement "
                    + StreamGridJob.class.getName());
        }
        final StreamGridJob entry;
        try {
            entry = configure.apply((StreamGridJob) type.getConstructor().newInstance());
        } catch (final NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw new ConfigException("class " + className + " needs to be public and concrete, with a public constructor "
                    + "without arguments", e);
        } catch (final InvocationTargetException e) {
            throw new ConfigException("creating " + className + " failed: " + e.getCause(), e.getCause());
        }
        final JobDefinition job;
        try {
            job = entry.job();
        } catch (final RuntimeException e) {
            throw new ConfigException(className + ".job() failed: " + e.getMessage(), e);
        }
        if (job == null) {
            throw new ConfigException(className + ".job() returned null: return the KeyedJob or WindowedJob to run");
        }
        return new UserJar(jar, loader, job);
    }

    JobDefinition job() {
        return job;
    }

    URL url() {
        return url(jar);
    }

    /**
     * Submits with the jar's loader as the context class loader (user classes in the DAG are
     * serialized here); a cluster that does not allow code upload refuses, and nothing is deployed.
     */
    Job submit(final Supplier<Job> submission) {
        final Thread thread = Thread.currentThread();
        final ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return submission.get();
        } catch (final RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("upload resources to the cluster, but this feature is disabled")) {
                throw new ConfigException("the cluster refuses job code from clients: set jobs.allow-code-upload: true on the "
                        + "members to run your own jars (see docs/SECURITY.md); nothing was deployed", e);
            }
            final String refusedClass = refusedClass(e);
            if (refusedClass != null) {
                throw new ConfigException("the members refuse to deserialize " + refusedClass + ": add its package ("
                        + packageOf(refusedClass) + ") to serialization.java-allow on every member and restart them; the job "
                        + "was not started", e);
            }
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The class a member's deserialization filter refused ("Resolving class X is not allowed."), or null. */
    private static String refusedClass(final Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            final java.util.regex.Matcher refused = REFUSED.matcher(String.valueOf(t.getMessage()));
            if (refused.find()) {
                return refused.group(1);
            }
        }
        return null;
    }

    private static final java.util.regex.Pattern REFUSED = java.util.regex.Pattern.compile("Resolving class (\\S+) is not allowed");

    private static String packageOf(final String className) {
        final int dot = className.lastIndexOf('.');
        return dot < 0 ? className : className.substring(0, dot + 1);
    }

    private static URL url(final Path jar) {
        try {
            return jar.toAbsolutePath().toUri().toURL();
        } catch (final MalformedURLException e) {
            throw new ConfigException("--jar " + jar + ": not a usable path", e);
        }
    }
}
