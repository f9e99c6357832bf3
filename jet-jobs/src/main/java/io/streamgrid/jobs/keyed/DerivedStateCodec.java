package io.streamgrid.jobs.keyed;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The codec {@link StateCodec#derived} makes for a state type: each value written field by field
 * in declaration order (a record's components; a class's instance fields, superclasses first,
 * {@code transient} and {@code static} ones left out), preceded by how many fields were written.
 * A later version of the type may append fields: a state written before reads back with the new
 * fields at their defaults (a record's: zero, false, null, an empty collection; a class's: what its
 * no-argument constructor leaves). A state written by a version with more fields than this one is
 * refused, naming both counts.
 *
 * <p>Values: primitives and their boxes, {@code String}, enums (by ordinal: add constants at the
 * end), arrays of any of these, {@code List}, {@code Set} and {@code Map} of them (read back as
 * {@code ArrayList}, {@code LinkedHashSet}, {@code LinkedHashMap}, or as the field's own concrete
 * type when it has a no-argument constructor), and nested records or classes of the same kinds. A
 * reference may be null. Values form a tree: an object reached twice is written twice.
 */
final class DerivedStateCodec<S> implements StateCodec<S> {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final int MAX_FIELDS = 255;

    private final Class<S> type;
    /** Built from {@code type} here and again after deserialization on a member. */
    private transient ValueCodec root;

    DerivedStateCodec(final Class<S> type) {
        this.type = type;
        this.root = plan(type, type.getSimpleName());
    }

    @Override
    public void write(final S state, final DataOutput out) throws IOException {
        root.write(state, out);
    }

    @Override
    @SuppressWarnings("unchecked")
    public S read(final DataInput in) throws IOException {
        return (S) root.read(in);
    }

    @Serial
    private void readObject(final ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        root = plan(type, type.getSimpleName());
    }

    /** How values of {@code type} (declared generically as {@code generic}) are written; {@code path} names it in errors. */
    private static ValueCodec plan(final Type generic, final String path) {
        final Class<?> raw = rawClass(generic, path);
        if (raw.isPrimitive()) {
            return PrimitiveCodecs.primitive(raw);
        }
        final ValueCodec value = referencePlan(generic, raw, path);
        return new ValueCodec() {
            @Override
            public void write(final Object object, final DataOutput out) throws IOException {
                out.writeBoolean(object != null);
                if (object != null) {
                    value.write(object, out);
                }
            }

            @Override
            public Object read(final DataInput in) throws IOException {
                return in.readBoolean() ? value.read(in) : null;
            }
        };
    }

    private static ValueCodec referencePlan(final Type generic, final Class<?> raw, final String path) {
        if (PrimitiveCodecs.UNBOXED.containsKey(raw)) {
            return PrimitiveCodecs.primitive(PrimitiveCodecs.unboxed(raw));
        }
        if (raw == String.class) {
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    out.writeUTF((String) value);
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    return in.readUTF();
                }
            };
        }
        if (raw.isEnum()) {
            final Object[] constants = raw.getEnumConstants();
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    out.writeShort(((Enum<?>) value).ordinal());
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    final int ordinal = in.readShort();
                    if (ordinal < 0 || ordinal >= constants.length) {
                        throw new IOException(path + ": constant " + ordinal + " of " + raw.getSimpleName() + ", which has "
                                + constants.length + " (constants may only be added at the end)");
                    }
                    return constants[ordinal];
                }
            };
        }
        if (raw.isArray()) {
            return arrayPlan(generic, raw, path);
        }
        if (Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw)) {
            return collectionPlan(generic, raw, path);
        }
        if (raw.isRecord()) {
            return recordPlan(raw, path);
        }
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers()) || raw.getName().startsWith("java.")) {
            throw new IllegalArgumentException(path + ": a " + raw.getName() + " cannot be derived (primitives, strings, enums,"
                    + " arrays, List, Set, Map, records and classes with a no-argument constructor can): write a StateCodec");
        }
        return classPlan(raw, path);
    }

    private static ValueCodec arrayPlan(final Type generic, final Class<?> raw, final String path) {
        final Class<?> component = raw.getComponentType();
        final ValueCodec primitives = PrimitiveCodecs.array(component, path);
        if (primitives != null) {
            return primitives;
        }
        final Type componentType = generic instanceof GenericArrayType array ? array.getGenericComponentType() : component;
        final ValueCodec element = plan(componentType, path + "[]");
        return new ValueCodec() {
            @Override
            public void write(final Object value, final DataOutput out) throws IOException {
                final int length = Array.getLength(value);
                out.writeInt(length);
                for (int i = 0; i < length; i++) {
                    element.write(Array.get(value, i), out);
                }
            }

            @Override
            public Object read(final DataInput in) throws IOException {
                final Object array = Array.newInstance(component, PrimitiveCodecs.length(in, path));
                for (int i = 0; i < Array.getLength(array); i++) {
                    Array.set(array, i, element.read(in));
                }
                return array;
            }
        };
    }

    private static ValueCodec collectionPlan(final Type generic, final Class<?> raw, final String path) {
        if (!(generic instanceof ParameterizedType parameterized)) {
            throw new IllegalArgumentException(path + ": a " + raw.getSimpleName() + " without its element types cannot be derived");
        }
        if (!raw.getName().startsWith("java.util.") || raw.getTypeParameters().length != (Map.class.isAssignableFrom(raw) ? 2 : 1)) {
            throw new IllegalArgumentException(path + ": a " + raw.getName() + " cannot be derived; declare it List, Set or Map"
                    + " (or a java.util implementation of one), or write a StateCodec");
        }
        final Type[] arguments = parameterized.getActualTypeArguments();
        final boolean map = Map.class.isAssignableFrom(raw);
        final ValueCodec first = plan(arguments[0], path + (map ? ".key" : "[]"));
        final ValueCodec second = map ? plan(arguments[1], path + ".value") : null;
        final Constructor<?> concrete = raw.isInterface() || Modifier.isAbstract(raw.getModifiers()) ? null : noArgumentConstructor(raw, path);
        if (concrete == null && raw != List.class && raw != Collection.class && raw != Set.class && raw != Map.class) {
            throw new IllegalArgumentException(path + ": a " + raw.getName() + " cannot be derived; declare it List, Set or Map");
        }
        return new ValueCodec() {
            @Override
            @SuppressWarnings("unchecked")
            public void write(final Object value, final DataOutput out) throws IOException {
                if (map) {
                    final Map<Object, Object> entries = (Map<Object, Object>) value;
                    out.writeInt(entries.size());
                    for (final Map.Entry<Object, Object> entry : entries.entrySet()) {
                        first.write(entry.getKey(), out);
                        second.write(entry.getValue(), out);
                    }
                } else {
                    final Collection<Object> elements = (Collection<Object>) value;
                    out.writeInt(elements.size());
                    for (final Object element : elements) {
                        first.write(element, out);
                    }
                }
            }

            @Override
            @SuppressWarnings("unchecked")
            public Object read(final DataInput in) throws IOException {
                final int size = PrimitiveCodecs.length(in, path);
                if (map) {
                    final Map<Object, Object> entries = concrete != null ? (Map<Object, Object>) instantiate(concrete, path)
                            : new LinkedHashMap<>(Math.max(4, size * 2));
                    for (int i = 0; i < size; i++) {
                        final Object key = first.read(in);
                        entries.put(key, second.read(in));
                    }
                    return entries;
                }
                final Collection<Object> elements = concrete != null ? (Collection<Object>) instantiate(concrete, path)
                        : raw == Set.class ? new LinkedHashSet<>(Math.max(4, size * 2)) : new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    elements.add(first.read(in));
                }
                return elements;
            }
        };
    }

    private static ValueCodec recordPlan(final Class<?> raw, final String path) {
        final RecordComponent[] components = raw.getRecordComponents();
        checkFieldCount(components.length, path);
        // A record's fields are read directly (a primitive without boxing), as a class's are; it is made by its canonical constructor.
        final Field[] fields = new Field[components.length];
        final ValueCodec[] values = new ValueCodec[components.length];
        final Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            try {
                fields[i] = raw.getDeclaredField(components[i].getName());
            } catch (final NoSuchFieldException e) {
                throw new IllegalStateException(path + ": record " + raw.getName() + " has no field for " + components[i].getName(), e);
            }
            fields[i].setAccessible(true);
            types[i] = components[i].getType();
            values[i] = types[i].isPrimitive() ? PrimitiveCodecs.field(fields[i]) : plan(components[i].getGenericType(),
                    path + "." + components[i].getName());
        }
        final boolean[] primitive = new boolean[components.length];
        final ValueCodec[] boxed = new ValueCodec[components.length]; // a primitive read boxed, as the constructor takes it
        for (int i = 0; i < components.length; i++) {
            primitive[i] = types[i].isPrimitive();
            boxed[i] = primitive[i] ? PrimitiveCodecs.primitive(types[i]) : values[i];
        }
        final Constructor<?> canonical;
        try {
            canonical = raw.getDeclaredConstructor(types);
            canonical.setAccessible(true);
        } catch (final NoSuchMethodException e) {
            throw new IllegalStateException(path + ": record " + raw.getName() + " has no canonical constructor", e);
        }
        return new ValueCodec() {
            @Override
            public void write(final Object value, final DataOutput out) throws IOException {
                out.writeByte(values.length);
                for (int i = 0; i < values.length; i++) {
                    values[i].write(primitive[i] ? value : get(fields[i], value), out);
                }
            }

            @Override
            public Object read(final DataInput in) throws IOException {
                final int written = writtenFields(in, values.length, raw, path);
                final Object[] arguments = new Object[values.length];
                for (int i = 0; i < values.length; i++) {
                    arguments[i] = i < written ? boxed[i].read(in) : PrimitiveCodecs.defaultOf(types[i]);
                }
                try {
                    return canonical.newInstance(arguments);
                } catch (final InstantiationException | IllegalAccessException | InvocationTargetException e) {
                    throw new IOException(path + ": cannot make a " + raw.getSimpleName() + ": " + e, e);
                }
            }
        };
    }

    private static ValueCodec classPlan(final Class<?> raw, final String path) {
        final List<Field> fields = new ArrayList<>();
        final List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = raw; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.add(0, c);
        }
        for (final Class<?> c : chain) {
            for (final Field field : c.getDeclaredFields()) {
                final int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()) {
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
        }
        checkFieldCount(fields.size(), path);
        final Constructor<?> constructor = noArgumentConstructor(raw, path);
        if (constructor == null) {
            throw new IllegalArgumentException(path + ": " + raw.getName() + " has no no-argument constructor (any visibility):"
                    + " add one, make it a record, or write a StateCodec");
        }
        final ValueCodec[] values = new ValueCodec[fields.size()];
        for (int i = 0; i < values.length; i++) {
            final Field field = fields.get(i);
            values[i] = field.getType().isPrimitive() ? PrimitiveCodecs.field(field) : plan(field.getGenericType(), path + "." + field.getName());
        }
        final Field[] declared = fields.toArray(Field[]::new);
        final boolean[] primitive = new boolean[declared.length];
        for (int i = 0; i < declared.length; i++) {
            primitive[i] = declared[i].getType().isPrimitive();
        }
        return new ValueCodec() {
            @Override
            public void write(final Object value, final DataOutput out) throws IOException {
                out.writeByte(values.length);
                for (int i = 0; i < values.length; i++) {
                    values[i].write(primitive[i] ? value : get(declared[i], value), out);
                }
            }

            @Override
            public Object read(final DataInput in) throws IOException {
                final int written = writtenFields(in, values.length, raw, path);
                final Object object = instantiate(constructor, path);
                for (int i = 0; i < written; i++) {
                    if (primitive[i]) {
                        ((PrimitiveCodecs.PrimitiveField) values[i]).readInto(object, in);
                    } else {
                        set(declared[i], object, values[i].read(in));
                    }
                }
                return object;
            }
        };
    }

    private static Class<?> rawClass(final Type type, final String path) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> c) {
            return c;
        }
        if (type instanceof GenericArrayType array) {
            return Array.newInstance(rawClass(array.getGenericComponentType(), path), 0).getClass();
        }
        throw new IllegalArgumentException(path + ": type " + type + " cannot be derived (a type variable or wildcard): write a StateCodec");
    }

    private static Constructor<?> noArgumentConstructor(final Class<?> raw, final String path) {
        try {
            final Constructor<?> constructor = raw.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor;
        } catch (final NoSuchMethodException e) {
            return null;
        }
    }

    private static Object instantiate(final Constructor<?> constructor, final String path) throws IOException {
        try {
            return constructor.newInstance();
        } catch (final InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IOException(path + ": cannot make a " + constructor.getDeclaringClass().getSimpleName() + ": " + e, e);
        }
    }

    private static void checkFieldCount(final int fields, final String path) {
        if (fields > MAX_FIELDS) {
            throw new IllegalArgumentException(path + " has " + fields + " fields; a derived codec takes at most " + MAX_FIELDS);
        }
    }

    private static int writtenFields(final DataInput in, final int known, final Class<?> raw, final String path) throws IOException {
        final int written = in.readUnsignedByte();
        if (written > known) {
            throw new IOException(path + ": a state written by a version of " + raw.getSimpleName() + " with " + written
                    + " fields; this version has " + known + " (fields may only be appended)");
        }
        return written;
    }

    private static Object get(final Field field, final Object owner) throws IOException {
        try {
            return field.get(owner);
        } catch (final IllegalAccessException e) {
            throw new IOException("field " + field.getName() + ": " + e, e);
        }
    }

    private static void set(final Field field, final Object owner, final Object value) throws IOException {
        try {
            field.set(owner, value);
        } catch (final IllegalAccessException e) {
            throw new IOException("field " + field.getName() + ": " + e, e);
        }
    }
}
