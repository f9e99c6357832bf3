package io.streamgrid.cq.impl;

import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers "does any of these predicates pass this value?" for many predicates at once. Why: a map
 * followed by a hundred subscriptions of the shape {@code field = literal} (a screen per symbol, a
 * dashboard per region) had every change of it tested against all hundred, one after another, three
 * times on the member (its doorbell, its read filter, each client's part) — a tenth of the member's
 * samples in the fan-out profile. Here each such predicate is filed under its field and literal: a
 * value is read once per field and looked up once; only predicates of other shapes are tested one by
 * one.
 *
 * <p>Exactly the predicates' semantics: a lookup hit is confirmed by the predicate itself, and a
 * literal is filed only where equal values under {@link Node#compare} (numbers by value across
 * types) always meet the same key — integral numbers and whole floating-point ones of magnitude
 * below 2<sup>53</sup>, where a double and a long are exact; strings; booleans. Other literals stay
 * with the predicates tested one by one. Immutable and thread-safe.
 *
 * <p>Failure behaviour: reading a field the value does not have throws {@link
 * io.streamgrid.cq.UnknownFieldException}, as the predicate would.
 */
public final class WhereIndex {
    /** Below this magnitude every integral value is exact as a double and back. */
    private static final double EXACT_BOUND = 0x1p53;

    /** Per field, the predicates filed by their literal's key. */
    private final String[] fields;
    private final Map<Object, Where[]>[] byKey;
    /** The predicates of any other shape, tested one by one. */
    private final Where[] others;

    private WhereIndex(final String[] fields, final Map<Object, Where[]>[] byKey, final Where[] others) {
        this.fields = fields;
        this.byKey = byKey;
        this.others = others;
    }

    /** An index over {@code wheres}. */
    @SuppressWarnings("unchecked")
    public static WhereIndex of(final Where[] wheres) {
        final Map<String, Map<Object, List<Where>>> filed = new LinkedHashMap<>();
        final List<Where> others = new ArrayList<>();
        for (final Where where : wheres) {
            final String field = indexedField(where);
            if (field == null) {
                others.add(where);
                continue;
            }
            final Map<Object, List<Where>> keys = filed.computeIfAbsent(field, f -> new HashMap<>());
            for (final Object literal : literals(where)) {
                final List<Where> under = keys.computeIfAbsent(keyOfLiteral(literal), k -> new ArrayList<>(1));
                if (!under.contains(where)) {
                    under.add(where);
                }
            }
        }
        final String[] fields = filed.keySet().toArray(new String[0]);
        final Map<Object, Where[]>[] byKey = new Map[fields.length];
        for (int i = 0; i < fields.length; i++) {
            final Map<Object, Where[]> keys = new HashMap<>();
            filed.get(fields[i]).forEach((key, under) -> keys.put(key, under.toArray(new Where[0])));
            byKey[i] = keys;
        }
        return new WhereIndex(fields, byKey, others.toArray(new Where[0]));
    }

    /** Whether any of the predicates passes {@code value}; false for null, as every predicate is. */
    public boolean anyPasses(final Object value) {
        if (value == null) {
            return false;
        }
        for (int i = 0; i < fields.length; i++) {
            final Object key = keyOfValue(FieldAccess.read(value, fields[i]));
            final Where[] candidates = key == null ? null : byKey[i].get(key);
            if (candidates != null) {
                for (final Where where : candidates) {
                    if (where.test(value)) {
                        return true;
                    }
                }
            }
        }
        for (final Where where : others) {
            if (where.test(value)) {
                return true;
            }
        }
        return false;
    }

    /** How many predicates are tested one by one (for tests and diagnostics). */
    public int unindexed() {
        return others.length;
    }

    /** The field of {@code field = literal} or {@code field IN (literals)} whose literals all have keys; else null. */
    private static String indexedField(final Where where) {
        if (!(where instanceof Node.Root root)) {
            return null;
        }
        if (root.node() instanceof Node.Compare compare && "=".equals(compare.op()) && keyOfLiteral(compare.literal()) != null) {
            return compare.field();
        }
        if (root.node() instanceof Node.In in && !in.values().isEmpty()
                && in.values().stream().allMatch(v -> keyOfLiteral(v) != null)) {
            return in.field();
        }
        return null;
    }

    private static List<Object> literals(final Where where) {
        final Node node = ((Node.Root) where).node();
        return node instanceof Node.Compare compare ? List.of(compare.literal()) : ((Node.In) node).values();
    }

    /** A literal's key, or null when it cannot be filed (see the class comment). */
    private static Object keyOfLiteral(final Object literal) {
        if (literal instanceof String || literal instanceof Boolean) {
            return literal;
        }
        if (literal instanceof Number number) {
            return wholeKey(number);
        }
        return null;
    }

    /**
     * A field value's key, under which every literal it equals is filed; null when none can be:
     * strings, characters (as one-letter strings, as they compare), booleans, and numbers that are
     * whole — of any magnitude when integral, since an integral literal is filed only below 2^53.
     */
    private static Object keyOfValue(final Object value) {
        if (value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Character c) {
            return String.valueOf(c);
        }
        if (value instanceof Number number && Node.isIntegral(number)) {
            return number.longValue();
        }
        if (value instanceof Number number) {
            return wholeKey(number);
        }
        return null;
    }

    /** An integral number, or a whole floating-point one, of magnitude below 2^53 as a Long; else null. */
    private static Long wholeKey(final Number number) {
        if (Node.isIntegral(number)) {
            final long v = number.longValue();
            return Math.abs((double) v) < EXACT_BOUND ? v : null;
        }
        final double d = number.doubleValue();
        return d == Math.rint(d) && Math.abs(d) < EXACT_BOUND ? (long) d : null;
    }
}
