package io.streamgrid.cq.impl;

import io.streamgrid.cq.Where;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/** The parsed predicate tree. Immutable, serializable: evaluated on the members. */
interface Node extends Serializable {
    boolean test(Object value);

    /** The public face: the tree plus its text. */
    record Root(String text, Node node) implements Where {
        @Override
        public boolean test(final Object value) {
            return value != null && node.test(value);
        }
    }

    /** Empty text: everything matches. */
    record All(String text) implements Where {
        @Override
        public boolean test(final Object value) {
            return value != null;
        }
    }

    record And(Node left, Node right) implements Node {
        @Override
        public boolean test(final Object value) {
            return left.test(value) && right.test(value);
        }
    }

    record Or(Node left, Node right) implements Node {
        @Override
        public boolean test(final Object value) {
            return left.test(value) || right.test(value);
        }
    }

    record Not(Node inner) implements Node {
        @Override
        public boolean test(final Object value) {
            return !inner.test(value);
        }
    }

    record IsNull(String field) implements Node {
        @Override
        public boolean test(final Object value) {
            return FieldAccess.read(value, field) == null;
        }
    }

    record Compare(String field, String op, Object literal) implements Node {
        @Override
        public boolean test(final Object value) {
            final Object actual = FieldAccess.read(value, field);
            if (actual == null) {
                return false;
            }
            final Integer order = compare(actual, literal);
            if (order == null) {
                return false;
            }
            return switch (op) {
                case "=" -> order == 0;
                case "!=" -> order != 0;
                case "<" -> order < 0;
                case "<=" -> order <= 0;
                case ">" -> order > 0;
                default -> order >= 0;
            };
        }
    }

    record In(String field, List<Object> values) implements Node {
        @Override
        public boolean test(final Object value) {
            final Object actual = FieldAccess.read(value, field);
            return actual != null && values.stream().anyMatch(v -> Objects.equals(compare(actual, v), 0));
        }
    }

    record Between(String field, Object low, Object high) implements Node {
        @Override
        public boolean test(final Object value) {
            final Object actual = FieldAccess.read(value, field);
            final Integer fromLow = actual == null ? null : compare(actual, low);
            final Integer fromHigh = actual == null ? null : compare(actual, high);
            return fromLow != null && fromHigh != null && fromLow >= 0 && fromHigh <= 0;
        }
    }

    record Like(String field, String pattern, Pattern regex) implements Node {
        Like(final String field, final String pattern) {
            this(field, pattern, toRegex(pattern));
        }

        @Override
        public boolean test(final Object value) {
            final Object actual = FieldAccess.read(value, field);
            return actual instanceof String s && regex.matcher(s).matches();
        }

        private static Pattern toRegex(final String like) {
            final StringBuilder regex = new StringBuilder();
            for (final char c : like.toCharArray()) {
                regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
            }
            return Pattern.compile(regex.toString(), Pattern.DOTALL);
        }
    }

    /** Numbers compare by value whatever their type; strings and booleans among themselves; else null. */
    static Integer compare(final Object actual, final Object literal) {
        if (actual instanceof Number a && literal instanceof Number b) {
            if (isIntegral(a) && isIntegral(b)) {
                return Long.compare(a.longValue(), b.longValue());
            }
            return Double.compare(a.doubleValue(), b.doubleValue());
        }
        if (actual instanceof String a && literal instanceof String b) {
            return a.compareTo(b);
        }
        if (actual instanceof Boolean a && literal instanceof Boolean b) {
            return Boolean.compare(a, b);
        }
        if (actual instanceof Character a && literal instanceof String b) {
            return String.valueOf(a).compareTo(b);
        }
        return null;
    }

    /** Whether {@code n} is of an integral type (compared as a long). */
    static boolean isIntegral(final Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
    }
}
