package io.streamgrid.jobs.ingest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Utf8Lines} reads the lines {@link BufferedReader} reads, and names the line that is not UTF-8. */
class Utf8LinesTest {
    @TempDir
    Path dir;

    @Test
    void when_textHasEveryKindOfLineEnd_then_theLinesAreBufferedReaders() throws IOException {
        final Random random = new Random(3);
        final String[] ends = {"\n", "\r", "\r\n", "\n\n", "\r\r\n"};
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            final int length = i == 7_000 ? 200_000 : random.nextInt(120); // one line longer than the buffer
            for (int c = 0; c < length; c++) {
                text.append(random.nextInt(10) == 0 ? "é€" : String.valueOf((char) ('a' + random.nextInt(26))));
            }
            text.append(ends[random.nextInt(ends.length)]);
        }
        text.append("the last line, no end");
        final Path file = Files.writeString(dir.resolve("lines.txt"), text, StandardCharsets.UTF_8);

        final List<String> expected;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            expected = reader.lines().toList();
        }
        final List<String> read = new ArrayList<>();
        try (Utf8Lines lines = new Utf8Lines(file)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                read.add(line);
                assertThat(lines.number()).isEqualTo(read.size());
            }
            assertThat(lines.bytesRead()).isEqualTo(Files.size(file));
        }
        assertThat(read).hasSize(expected.size()).isEqualTo(expected);
    }

    @Test
    void when_aLineIsNotUtf8_then_itsNumberIsKnown() throws IOException {
        final Path file = dir.resolve("latin1.txt");
        Files.write(file, "one\r\ntwo\ncaf\u00e9\nfour\n".getBytes(StandardCharsets.ISO_8859_1));
        try (Utf8Lines lines = new Utf8Lines(file)) {
            assertThat(lines.next()).isEqualTo("one");
            assertThat(lines.next()).isEqualTo("two");
            assertThatThrownBy(lines::next).isInstanceOf(CharacterCodingException.class);
            assertThat(lines.number()).isEqualTo(3);
        }
    }

    @Test
    void when_theFileIsEmpty_then_noLine() throws IOException {
        try (Utf8Lines lines = new Utf8Lines(Files.writeString(dir.resolve("empty.txt"), ""))) {
            assertThat(lines.next()).isNull();
        }
    }
}
