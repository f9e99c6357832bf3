package io.streamgrid.sink;

/** The column types the sink writes, with the Java type a row value must have. */
public enum CqlType {
    TEXT("text", String.class),
    BIGINT("bigint", Long.class),
    INT("int", Integer.class),
    DOUBLE("double", Double.class),
    BOOLEAN("boolean", Boolean.class);

    private final String cql;
    private final Class<?> javaType;

    CqlType(final String cql, final Class<?> javaType) {
        this.cql = cql;
        this.javaType = javaType;
    }

    public String cql() {
        return cql;
    }

    public Class<?> javaType() {
        return javaType;
    }
}
