package org.donordata.adapters.cli;

import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The characters of a UTF-8 import file, with a byte order mark at its start dropped (spreadsheets write one) and a
 * limit on how long a line may be, so that a file of one endless line cannot exhaust memory. Bytes that are not UTF-8
 * read as {@link #NOT_UTF8}, so that the row holding them is refused and the rows around it go on. Counts lines and
 * characters for messages and progress.
 */
final class BoundedReader extends FilterReader {

    /**
     * Stands for bytes that are not UTF-8: a noncharacter, which no client has reason to send, so a row holding it is
     * refused whether the file spelled it as bad bytes or as its own (valid) encoding.
     */
    static final char NOT_UTF8 = '\uFFFF';

    /** Far longer than any donor's line (the longest record is about 12,000 characters), far shorter than memory. */
    static final int MAX_LINE = 1 << 16;

    private int sinceLineBreak;
    private long line = 1;
    private long characters;
    private boolean started;

    BoundedReader(InputStream in) {
        super(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)
                .replaceWith(String.valueOf(NOT_UTF8))));
    }

    static boolean notUtf8(String text) {
        return text.indexOf(NOT_UTF8) >= 0;
    }

    @Override
    public int read() throws IOException {
        char[] one = new char[1];
        return read(one, 0, 1) < 0 ? -1 : one[0];
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read > 0 && !started) {
            started = true;
            if (buffer[offset] == '\uFEFF') {
                System.arraycopy(buffer, offset + 1, buffer, offset, read - 1);
                read--;
                if (read == 0) {
                    return read(buffer, offset, length);
                }
            }
        }
        for (int i = offset; i < offset + Math.max(read, 0); i++) {
            if (buffer[i] == '\n') {
                line++;
                sinceLineBreak = 0;
            } else if (++sinceLineBreak > MAX_LINE) {
                throw new IOException("line " + line + " is longer than " + MAX_LINE + " characters");
            }
        }
        characters += Math.max(read, 0);
        return read;
    }

    /** The line the reading is on. */
    long line() {
        return line;
    }

    long characters() {
        return characters;
    }
}
