package io.streamgrid.jobs.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A file's lines, each decoded as UTF-8 on its own, so that bytes that are not UTF-8 are reported
 * with the number of the line that holds them — a reader decoding ahead in blocks cannot say which
 * line it was. Line ends as {@link java.io.BufferedReader}'s: {@code \n}, {@code \r} or
 * {@code \r\n}. Lines are found in one buffer (grown for a longer line) and decoded from it.
 */
final class Utf8Lines implements AutoCloseable {
    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private byte[] buffer = new byte[1 << 16];
    /** Unread bytes are {@code buffer[start, end)}. */
    private int start;
    private int end;
    private boolean eof;
    /** The last line ended with '\r': a '\n' right after it belongs to that end. */
    private boolean afterCarriageReturn;
    private long number;
    private long bytesRead;

    Utf8Lines(final Path file) throws IOException {
        this.in = Files.newInputStream(file);
    }

    /**
     * The next line without its end, or null at the end of the file.
     *
     * @throws CharacterCodingException when the line is not UTF-8 ({@link #number()} is its number)
     */
    String next() throws IOException {
        if (afterCarriageReturn) {
            afterCarriageReturn = false;
            if (available() && buffer[start] == '\n') {
                start++;
                bytesRead++;
            }
        }
        int scanned = start;
        while (true) {
            while (scanned < end && buffer[scanned] != '\n' && buffer[scanned] != '\r') {
                scanned++;
            }
            if (scanned < end) {
                return line(scanned, 1);
            }
            final int scannedPastStart = scanned - start; // fill() moves the unread bytes to the buffer's start
            if (!fill()) {
                return start == end ? null : line(end, 0); // the last line has no end
            }
            scanned = start + scannedPastStart;
        }
    }

    /** The line in {@code buffer[start, lineEnd)}, its end {@code endLength} bytes long; moves past both. */
    private String line(final int lineEnd, final int endLength) throws CharacterCodingException {
        final int from = start;
        afterCarriageReturn = endLength == 1 && buffer[lineEnd] == '\r';
        start = lineEnd + endLength;
        bytesRead += lineEnd - from + endLength;
        number++;
        return decoder.decode(ByteBuffer.wrap(buffer, from, lineEnd - from)).toString();
    }

    /** Whether a byte is unread, reading more if needed. */
    private boolean available() throws IOException {
        return start < end || fill();
    }

    /**
     * Reads more bytes after the unread ones (moved to the buffer's start, the buffer grown when they
     * fill it); false at the end of the file.
     */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        final int unread = end - start;
        if (unread == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        } else if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, unread);
        }
        start = 0;
        end = unread;
        final int read = in.read(buffer, end, buffer.length - end);
        if (read < 0) {
            eof = true;
            return false;
        }
        end += read;
        return true;
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
