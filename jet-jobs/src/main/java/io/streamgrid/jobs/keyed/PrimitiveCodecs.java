package io.streamgrid.jobs.keyed;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The primitive side of {@link DerivedStateCodec}: primitives boxed or in place, primitive arrays, defaults. */
final class PrimitiveCodecs {
    private PrimitiveCodecs() {
    }

    /** The codec of an array of {@code component} when it is long, double, int or byte (written in a loop, no boxing), else null. */
    static ValueCodec array(final Class<?> component, final String path) {
        if (component == long.class) {
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    final long[] array = (long[]) value;
                    out.writeInt(array.length);
                    for (final long element : array) {
                        out.writeLong(element);
                    }
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    final long[] array = new long[length(in, path)];
                    for (int i = 0; i < array.length; i++) {
                        array[i] = in.readLong();
                    }
                    return array;
                }
            };
        }
        if (component == double.class) {
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    final double[] array = (double[]) value;
                    out.writeInt(array.length);
                    for (final double element : array) {
                        out.writeDouble(element);
                    }
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    final double[] array = new double[length(in, path)];
                    for (int i = 0; i < array.length; i++) {
                        array[i] = in.readDouble();
                    }
                    return array;
                }
            };
        }
        if (component == int.class) {
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    final int[] array = (int[]) value;
                    out.writeInt(array.length);
                    for (final int element : array) {
                        out.writeInt(element);
                    }
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    final int[] array = new int[length(in, path)];
                    for (int i = 0; i < array.length; i++) {
                        array[i] = in.readInt();
                    }
                    return array;
                }
            };
        }
        if (component == byte.class) {
            return new ValueCodec() {
                @Override
                public void write(final Object value, final DataOutput out) throws IOException {
                    final byte[] array = (byte[]) value;
                    out.writeInt(array.length);
                    out.write(array);
                }

                @Override
                public Object read(final DataInput in) throws IOException {
                    final byte[] array = new byte[length(in, path)];
                    in.readFully(array);
                    return array;
                }
            };
        }
        return null;
    }

    /** A primitive field read and written in place, without boxing: its codec gets the owning object. */
    interface PrimitiveField extends ValueCodec {
        void readInto(Object owner, DataInput in) throws IOException;

        @Override
        default Object read(final DataInput in) {
            throw new UnsupportedOperationException("a primitive field is read into its owner");
        }
    }

    static PrimitiveField field(final Field field) {
        final Class<?> type = field.getType();
        final String name = field.getName();
        return new PrimitiveField() {
            @Override
            public void write(final Object owner, final DataOutput out) throws IOException {
                try {
                    if (type == long.class) {
                        out.writeLong(field.getLong(owner));
                    } else if (type == int.class) {
                        out.writeInt(field.getInt(owner));
                    } else if (type == double.class) {
                        out.writeDouble(field.getDouble(owner));
                    } else if (type == boolean.class) {
                        out.writeBoolean(field.getBoolean(owner));
                    } else if (type == float.class) {
                        out.writeFloat(field.getFloat(owner));
                    } else if (type == short.class) {
                        out.writeShort(field.getShort(owner));
                    } else if (type == byte.class) {
                        out.writeByte(field.getByte(owner));
                    } else {
                        out.writeChar(field.getChar(owner));
                    }
                } catch (final IllegalAccessException e) {
                    throw new IOException("field " + name + ": " + e, e);
                }
            }

            @Override
            public void readInto(final Object owner, final DataInput in) throws IOException {
                try {
                    if (type == long.class) {
                        field.setLong(owner, in.readLong());
                    } else if (type == int.class) {
                        field.setInt(owner, in.readInt());
                    } else if (type == double.class) {
                        field.setDouble(owner, in.readDouble());
                    } else if (type == boolean.class) {
                        field.setBoolean(owner, in.readBoolean());
                    } else if (type == float.class) {
                        field.setFloat(owner, in.readFloat());
                    } else if (type == short.class) {
                        field.setShort(owner, in.readShort());
                    } else if (type == byte.class) {
                        field.setByte(owner, in.readByte());
                    } else {
                        field.setChar(owner, in.readChar());
                    }
                } catch (final IllegalAccessException e) {
                    throw new IOException("field " + name + ": " + e, e);
                }
            }
        };
    }

    /** A primitive value (a record component, an array or collection element, a box's content), boxed. */
    static ValueCodec primitive(final Class<?> type) {
        return new ValueCodec() {
            @Override
            public void write(final Object value, final DataOutput out) throws IOException {
                if (type == long.class) {
                    out.writeLong((Long) value);
                } else if (type == int.class) {
                    out.writeInt((Integer) value);
                } else if (type == double.class) {
                    out.writeDouble((Double) value);
                } else if (type == boolean.class) {
                    out.writeBoolean((Boolean) value);
                } else if (type == float.class) {
                    out.writeFloat((Float) value);
                } else if (type == short.class) {
                    out.writeShort((Short) value);
                } else if (type == byte.class) {
                    out.writeByte((Byte) value);
                } else {
                    out.writeChar((Character) value);
                }
            }

            @Override
            public Object read(final DataInput in) throws IOException {
                if (type == long.class) {
                    return in.readLong();
                } else if (type == int.class) {
                    return in.readInt();
                } else if (type == double.class) {
                    return in.readDouble();
                } else if (type == boolean.class) {
                    return in.readBoolean();
                } else if (type == float.class) {
                    return in.readFloat();
                } else if (type == short.class) {
                    return in.readShort();
                } else if (type == byte.class) {
                    return in.readByte();
                }
                return in.readChar();
            }
        };
    }

    static final Map<Class<?>, Class<?>> UNBOXED = Map.of(Long.class, long.class, Integer.class, int.class,
            Double.class, double.class, Boolean.class, boolean.class, Short.class, short.class, Byte.class, byte.class,
            Float.class, float.class, Character.class, char.class);

    static Class<?> unboxed(final Class<?> box) {
        return UNBOXED.get(box);
    }

    static Object defaultOf(final Class<?> type) {
        if (type == long.class) {
            return 0L;
        } else if (type == int.class) {
            return 0;
        } else if (type == double.class) {
            return 0.0;
        } else if (type == boolean.class) {
            return false;
        } else if (type == float.class) {
            return 0f;
        } else if (type == short.class) {
            return (short) 0;
        } else if (type == byte.class) {
            return (byte) 0;
        } else if (type == char.class) {
            return (char) 0;
        } else if (type == List.class || type == Collection.class) {
            return new ArrayList<>();
        } else if (type == Set.class) {
            return new LinkedHashSet<>();
        } else if (type == Map.class) {
            return new LinkedHashMap<>();
        }
        return null;
    }

    static int length(final DataInput in, final String path) throws IOException {
        final int length = in.readInt();
        if (length < 0) {
            throw new IOException(path + ": length " + length + " (the snapshot is damaged)");
        }
        return length;
    }
}
