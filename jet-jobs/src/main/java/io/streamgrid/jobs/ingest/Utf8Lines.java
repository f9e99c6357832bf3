package io.streamgrid.jobs.ingest;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file's lines, each decoded as UTF-8 on its own, so that bytes that are not UTF-8 are reported
 * with the number of the line that holds them — a reader decoding ahead in blocks cannot say which
 * line it was. Line ends as {@link java.io.BufferedReader}'s:
 * {@code \n}, {@code \r} or {@code \r\n}.
 */
final class Utf8Lines implements AutoCloseable {
    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private long number;
    private long bytesRead;

    Utf8Lines(final Path file) throws IOException {
        this.in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    }

    /**
     * The next line without its end, or null at the end of the file.
     *
     * @throws CharacterCodingException when the line is not UTF-8 ({@link #number()} is its number)
     */
    String next() throws IOException {
        line.reset();
        int b = in.read();
        if (b < 0) {
            return null;
        }
        while (b >= 0 && b != '\n' && b != '\r') {
            line.write(b);
            b = in.read();
        }
        bytesRead += line.size() + (b < 0 ? 0 : 1);
        if (b == '\r') {
            in.mark(1);
            if (in.read() == '\n') {
                bytesRead++;
            } else {
                in.reset();
            }
        }
        number++;
        return decoder.decode(ByteBuffer.wrap(line.toByteArray())).toString();
    }

    /** The number of the line {@link #next} returned last (1 for the first). */
    long number() {
        return number;
    }

    /** Bytes read so far, line ends included. */
    long bytesRead() {
        return bytesRead;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
