package io.streamgrid.jobs.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Events as JSON texts, all in one UTF-8 byte array: event {@code i} is
 * {@code utf8[start(i), end(i))}. The form a publisher's batch travels in — one array instead of
 * a string per event — and the one {@link LogPublisher} reads, mostly without decoding a string.
 *
 * @param utf8 the texts one after the other
 * @param ends per event, the index in {@code utf8} just after it (increasing)
 */
public record EventTexts(byte[] utf8, int[] ends) {
    public EventTexts {
        for (int i = 0; i < ends.length; i++) {
            if (ends[i] < (i == 0 ? 0 : ends[i - 1]) || ends[i] > utf8.length) {
                throw new IllegalArgumentException("event " + i + " ends at " + ends[i] + ", outside 0.." + utf8.length
                        + " or before the previous one");
            }
        }
    }

    public static EventTexts of(final String... events) {
        final byte[][] encoded = new byte[events.length][];
        int length = 0;
        for (int i = 0; i < events.length; i++) {
            encoded[i] = events[i].getBytes(StandardCharsets.UTF_8);
            length += encoded[i].length;
        }
        final byte[] utf8 = new byte[length];
        final int[] ends = new int[events.length];
        int at = 0;
        for (int i = 0; i < events.length; i++) {
            System.arraycopy(encoded[i], 0, utf8, at, encoded[i].length);
            at += encoded[i].length;
            ends[i] = at;
        }
        return new EventTexts(utf8, ends);
    }

    public int count() {
        return ends.length;
    }

    public int start(final int event) {
        return event == 0 ? 0 : ends[event - 1];
    }

    public int end(final int event) {
        return ends[event];
    }

    /** Event {@code event}'s text, decoded. */
    public String text(final int event) {
        return new String(utf8, start(event), end(event) - start(event), StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof EventTexts texts && Arrays.equals(texts.utf8, utf8) && Arrays.equals(texts.ends, ends);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(utf8) + Arrays.hashCode(ends);
    }

    @Override
    public String toString() {
        return ends.length + " events, " + utf8.length + " bytes";
    }
}
