package io.streamgrid.jobs.pipeline.impl;

import java.util.Arrays;

/**
 * The due nodes of one {@link TimerQueue} bucket with their timers' registration sequences, sorted
 * by sequence — so that timers of one time fire in registration order on every replay. Reused: its
 * arrays grow to the largest bucket seen; a bottom-up merge sort over primitive arrays.
 */
final class NodesBySequence {
    private int[] nodes = new int[64];
    private long[] sequences = new long[64];
    private int[] mergeNodes = new int[64];
    private long[] mergeSequences = new long[64];
    private int count;

    /** Starts a new bucket. */
    void clear() {
        count = 0;
    }

    void add(final int node, final long sequence) {
        if (count == nodes.length) {
            nodes = Arrays.copyOf(nodes, count * 2);
            sequences = Arrays.copyOf(sequences, count * 2);
        }
        nodes[count] = node;
        sequences[count] = sequence;
        count++;
    }

    int count() {
        return count;
    }

    int node(final int i) {
        return nodes[i];
    }

    long sequence(final int i) {
        return sequences[i];
    }

    /** Sorts what was added by sequence (sequences are unique). */
    void sort() {
        if (mergeNodes.length < count) {
            mergeNodes = new int[nodes.length];
            mergeSequences = new long[nodes.length];
        }
        int[] fromNodes = nodes;
        long[] fromSequences = sequences;
        int[] toNodes = mergeNodes;
        long[] toSequences = mergeSequences;
        for (int width = 1; width < count; width *= 2) {
            for (int start = 0; start < count; start += 2 * width) {
                final int middle = Math.min(start + width, count);
                final int end = Math.min(start + 2 * width, count);
                int left = start;
                int right = middle;
                for (int out = start; out < end; out++) {
                    if (left < middle && (right >= end || fromSequences[left] < fromSequences[right])) {
                        toNodes[out] = fromNodes[left];
                        toSequences[out] = fromSequences[left++];
                    } else {
                        toNodes[out] = fromNodes[right];
                        toSequences[out] = fromSequences[right++];
                    }
                }
            }
            final int[] swapNodes = fromNodes;
            fromNodes = toNodes;
            toNodes = swapNodes;
            final long[] swapSequences = fromSequences;
            fromSequences = toSequences;
            toSequences = swapSequences;
        }
        if (fromNodes != nodes) {
            System.arraycopy(fromNodes, 0, nodes, 0, count);
            System.arraycopy(fromSequences, 0, sequences, 0, count);
        }
    }
}
