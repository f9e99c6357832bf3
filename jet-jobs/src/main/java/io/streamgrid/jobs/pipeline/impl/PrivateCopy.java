package io.streamgrid.jobs.pipeline.impl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * A private copy of a user's serializable object (a keyed function), made by serializing it, so
 * that each partition task owns one: Jet hands every processor of a member the same job object,
 * and a function with fields would otherwise be shared between threads. Classes resolve through the
 * object's own class loader first (a user jar's job class loader), then the usual way.
 */
final class PrivateCopy {
    private PrivateCopy() {
    }

    @SuppressWarnings("unchecked")
    static <T extends Serializable> T of(final T original) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(original);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot copy " + original.getClass().getName() + " (serializing it failed)", e);
        }
        final ClassLoader loader = original.getClass().getClassLoader();
        try (ObjectInputStream in = new LoaderInputStream(new ByteArrayInputStream(bytes.toByteArray()), loader)) {
            return (T) in.readObject();
        } catch (final IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot copy " + original.getClass().getName() + " (deserializing it failed)", e);
        }
    }

    private static final class LoaderInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderInputStream(final InputStream in, final ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(final ObjectStreamClass description) throws IOException, ClassNotFoundException {
            if (loader != null) {
                try {
                    return Class.forName(description.getName(), false, loader);
                } catch (final ClassNotFoundException notThere) {
                    // a JDK or StreamGrid class: the default resolution finds it
                }
            }
            return super.resolveClass(description);
        }
    }
}
