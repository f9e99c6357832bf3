package io.streamgrid.examples.recommendations;

import java.util.Arrays;

/**
 * What users who looked at an item also looked at: the dimension {@code dim.item-neighbours} holds
 * one per item, computed offline from click history (co-occurrence counts) and kept in the grid.
 * The three arrays are parallel: neighbour item, its category, and how often it co-occurred.
 */
public record ItemNeighbours(long[] items, int[] categories, long[] counts) {
    public ItemNeighbours {
        if (items.length != categories.length || items.length != counts.length) {
            throw new IllegalArgumentException("items, categories and counts must be parallel arrays, were " + items.length + ", "
                    + categories.length + " and " + counts.length + " long");
        }
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof ItemNeighbours n && Arrays.equals(items, n.items) && Arrays.equals(categories, n.categories)
                && Arrays.equals(counts, n.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(items) * 31 + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "ItemNeighbours" + Arrays.toString(items);
    }
}
