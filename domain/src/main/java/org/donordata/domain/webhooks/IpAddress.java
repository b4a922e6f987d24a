package org.donordata.domain.webhooks;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An IPv4 (4 bytes) or IPv6 (16 bytes) address, as a value: read from a literal here without any name look-up (the
 * domain never resolves a name), or taken from the bytes of the address a connection reached. An IPv4-mapped IPv6
 * address ({@code ::ffff:10.0.0.1}) is its IPv4 address, as every stack connects it.
 */
public record IpAddress(byte[] bytes) {

    private static final Pattern IPV4_PARTS = Pattern.compile("(0[xX][0-9a-fA-F]*|[0-9]+)(\\.(0[xX][0-9a-fA-F]*|[0-9]+)){0,3}");
    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}");
    private static final byte[] MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};

    public IpAddress {
        if (bytes.length != 4 && bytes.length != 16) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes");
        }
        bytes = bytes.length == 16 && Arrays.equals(bytes, 0, 12, MAPPED_PREFIX, 0, 12)
                ? Arrays.copyOfRange(bytes, 12, 16) : bytes.clone();
    }

    /** A copy of the address's bytes. */
    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * The address a host names when it is an IP literal: IPv6 bare or in brackets (a zone id is ignored), IPv4 in every
     * form a C resolver's {@code inet_aton} takes (so {@code 2130706433}, {@code 127.1} and {@code 0x7f.0.0.1} are all
     * 127.0.0.1, as a client library would connect them); empty for a name or a malformed literal.
     */
    public static Optional<IpAddress> parse(String host) {
        if (IPV4_PARTS.matcher(host).matches()) {
            return ipv4(host.split("\\.", -1));
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        int zone = bare.indexOf('%');
        return bare.contains(":") ? ipv6(zone < 0 ? bare : bare.substring(0, zone)) : Optional.empty();
    }

    /** An IPv4 address written as four decimal numbers, the form an operator's setting is held to. */
    static boolean isDottedQuad(String text) {
        return DOTTED_QUAD.matcher(text).matches();
    }

    private static Optional<IpAddress> ipv4(String[] parts) {
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            Long value = number(parts[i]);
            if (value == null) {
                return Optional.empty();
            }
            values[i] = value;
        }
        // inet_aton: a.b.c.d, a.b.c (c fills 16 bits), a.b (b fills 24 bits), a (32 bits).
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 255) {
                return Optional.empty();
            }
            address |= values[i] << (24 - 8 * i);
        }
        long last = values[values.length - 1];
        if (last >= 1L << (32 - 8 * (values.length - 1))) {
            return Optional.empty();
        }
        address |= last;
        return Optional.of(new IpAddress(new byte[] {(byte) (address >>> 24), (byte) (address >>> 16),
                (byte) (address >>> 8), (byte) address}));
    }

    private static Long number(String part) {
        try {
            if (part.startsWith("0x") || part.startsWith("0X")) {
                return part.length() == 2 ? 0L : Long.parseLong(part.substring(2), 16);
            }
            if (part.length() > 1 && part.startsWith("0")) {
                return Long.parseLong(part.substring(1), 8);
            }
            return Long.parseLong(part);
        } catch (NumberFormatException tooLongOrNotOctal) {
            return null;
        }
    }

    // RFC 4291, 2.2: eight groups of 1-4 hex digits, one run of them may be "::", the last two may be a dotted quad.
    private static Optional<IpAddress> ipv6(String text) {
        int elided = text.indexOf("::");
        if (elided >= 0 && text.indexOf("::", elided + 1) >= 0) {
            return Optional.empty();
        }
        byte[] head = groups(elided < 0 ? text : text.substring(0, elided), elided < 0);
        byte[] tail = elided < 0 ? new byte[0] : groups(text.substring(elided + 2), true);
        if (head == null || tail == null) {
            return Optional.empty();
        }
        int given = head.length + tail.length;
        if (elided < 0 ? given != 16 : given > 14) {
            return Optional.empty();
        }
        byte[] bytes = new byte[16];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(tail, 0, bytes, 16 - tail.length, tail.length);
        return Optional.of(new IpAddress(bytes));
    }

    /** The bytes of colon-separated groups, the last of which may be a dotted quad; null when malformed. */
    private static byte[] groups(String text, boolean mayEndInQuad) {
        if (text.isEmpty()) {
            return new byte[0];
        }
        String[] groups = text.split(":", -1);
        byte[] bytes = new byte[groups.length * 2 + 2];
        int length = 0;
        for (int i = 0; i < groups.length; i++) {
            String group = groups[i];
            if (i == groups.length - 1 && group.contains(".")) {
                if (!mayEndInQuad || !isDottedQuad(group)) {
                    return null;
                }
                byte[] quad = ipv4(group.split("\\.")).orElseThrow().bytes;
                System.arraycopy(quad, 0, bytes, length, 4);
                length += 4;
            } else if (HEX_GROUP.matcher(group).matches()) {
                int value = Integer.parseInt(group, 16);
                bytes[length++] = (byte) (value >>> 8);
                bytes[length++] = (byte) value;
            } else {
                return null;
            }
        }
        return length > 16 ? null : Arrays.copyOf(bytes, length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpAddress address && Arrays.equals(bytes, address.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            text.append(i == 0 ? "" : ":").append(Integer.toHexString((bytes[i] & 0xff) << 8 | bytes[i + 1] & 0xff));
        }
        return text.toString();
    }
}
