package org.donordata.adapters.http.donors;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.SerializableString;

/**
 * A JSON value that is already UTF-8 bytes, for {@code JsonGenerator.writeRawValue}: Jackson's UTF-8 generator copies
 * the bytes of a raw value into its buffer ({@link #appendUnquotedUTF8}) or writes them as they are
 * ({@link #asUnquotedUTF8}). Only those unquoted forms exist; a raw value is never quoted.
 */
record Utf8Json(byte[] bytes) implements SerializableString {

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + bytes.length > buffer.length) {
            return -1;
        }
        System.arraycopy(bytes, 0, buffer, offset, bytes.length);
        return bytes.length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return bytes;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(bytes);
        return bytes.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (bytes.length > buffer.remaining()) {
            return -1;
        }
        buffer.put(bytes);
        return bytes.length;
    }

    @Override
    public String getValue() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        char[] chars = getValue().toCharArray();
        if (offset + chars.length > buffer.length) {
            return -1;
        }
        System.arraycopy(chars, 0, buffer, offset, chars.length);
        return chars.length;
    }

    @Override
    public char[] asQuotedChars() {
        throw quoted();
    }

    @Override
    public byte[] asQuotedUTF8() {
        throw quoted();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        throw quoted();
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        throw quoted();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
        throw quoted();
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        throw quoted();
    }

    private static UnsupportedOperationException quoted() {
        return new UnsupportedOperationException("a raw JSON value is never quoted");
    }
}
