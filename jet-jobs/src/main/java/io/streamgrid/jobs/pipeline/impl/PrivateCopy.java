package io.streamgrid.jobs.pipeline.impl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A private copy of a user's serializable object (a keyed function), made by serializing it, so
 * that each partition task owns one: Jet hands every processor of a member the same job object,
 * and a function with fields would otherwise be shared between threads. Classes resolve through the
 * class loaders of the classes written (a user jar's job class loader — also for a user's function
 * inside one of ours, such as the adapter of a key-typed function), then the usual way.
 */
final class PrivateCopy {
    private PrivateCopy() {
    }

    @SuppressWarnings("unchecked")
    static <T extends Serializable> T of(final T original) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final Set<ClassLoader> loaders = new LinkedHashSet<>();
        try (ObjectOutputStream out = new LoaderRecordingStream(bytes, loaders)) {
            out.writeObject(original);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot copy " + original.getClass().getName() + " (serializing it failed)", e);
        }
        try (ObjectInputStream in = new LoaderInputStream(new ByteArrayInputStream(bytes.toByteArray()), loaders)) {
            return (T) in.readObject();
        } catch (final IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot copy " + original.getClass().getName() + " (deserializing it failed)", e);
        }
    }

    /** Notes the loader of every class it writes (the JDK's, null, left out). */
    private static final class LoaderRecordingStream extends ObjectOutputStream {
        private final Set<ClassLoader> loaders;

        LoaderRecordingStream(final OutputStream out, final Set<ClassLoader> loaders) throws IOException {
            super(out);
            this.loaders = loaders;
        }

        @Override
        protected void annotateClass(final Class<?> type) {
            if (type.getClassLoader() != null) {
                loaders.add(type.getClassLoader());
            }
        }
    }

    private static final class LoaderInputStream extends ObjectInputStream {
        private final Set<ClassLoader> loaders;

        LoaderInputStream(final InputStream in, final Set<ClassLoader> loaders) throws IOException {
            super(in);
            this.loaders = loaders;
        }

        @Override
        protected Class<?> resolveClass(final ObjectStreamClass description) throws IOException, ClassNotFoundException {
            for (final ClassLoader loader : loaders) {
                try {
                    return Class.forName(description.getName(), false, loader);
                } catch (final ClassNotFoundException notThere) {
                    // another loader's class: the next one, or the default resolution, finds it
                }
            }
            return super.resolveClass(description);
        }
    }
}
