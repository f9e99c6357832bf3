package io.streamgrid.jobs.event;

import java.util.Arrays;
import java.util.Locale;

/** What a click event did: the symbols of the {@code click} schema's {@code action}, in ordinal order. */
public enum ClickAction {
    VIEW, CLICK, PURCHASE;

    static String[] symbols() {
        return Arrays.stream(values()).map(action -> action.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);
    }
}
