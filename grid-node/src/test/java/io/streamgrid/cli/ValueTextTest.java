package io.streamgrid.cli;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ValueText}: values for people in tables and lines, exact in JSON. */
class ValueTextTest {
    record Alert(String ip, long windowStart, long count, double score, double tiny, double whole) {
    }

    private static final Alert ALERT = new Alert("10.0.0.7", 1_767_225_780_000L, 1_767_225_780_000L, 32.95830699535399, 1.07468e-9, 2.0);

    @Test
    void when_aValueHasTimesAndDoubles_then_peopleReadInstantsAndRoundedNumbers() {
        assertThat(ValueText.cell("windowStart", ALERT.windowStart())).isEqualTo("2026-01-01T00:03:00Z");
        assertThat(ValueText.cell("count", ALERT.count())).as("not a time field by name").isEqualTo("1767225780000");
        assertThat(ValueText.cell("ts", 42L)).as("a time field, but no time in range").isEqualTo("42");
        assertThat(ValueText.cell("score", ALERT.score())).isEqualTo("32.958");
        assertThat(ValueText.cell("tiny", ALERT.tiny())).isEqualTo("1.07e-09");
        assertThat(ValueText.cell("whole", ALERT.whole())).isEqualTo("2");
        assertThat(ValueText.cell("negative", -0.0005)).isEqualTo("-0.000500");
    }

    @Test
    void when_printedAsFieldsOrTable_then_aligned_andJsonStaysExact() {
        assertThat(ValueText.fields(ALERT)).containsExactly(
                "ip           10.0.0.7",
                "windowStart  2026-01-01T00:03:00Z",
                "count        1767225780000",
                "score        32.958",
                "tiny         1.07e-09",
                "whole        2");
        assertThat(ValueText.table(List.of(Map.entry((Object) "k", (Object) ALERT)))).containsExactly(
                "KEY  IP        WINDOWSTART           COUNT          SCORE   TINY      WHOLE",
                "k    10.0.0.7  2026-01-01T00:03:00Z  1767225780000  32.958  1.07e-09  2");
        assertThat(ValueText.json("k", ALERT)).contains("\"windowStart\":1767225780000", "\"score\":32.95830699535399");
    }
}
