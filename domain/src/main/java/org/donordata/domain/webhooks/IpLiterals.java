package org.donordata.domain.webhooks;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Hosts that are IP addresses written out, read without any name look-up: IPv6 in brackets or bare, and IPv4 in every
 * form a C resolver's {@code inet_aton} takes (so {@code 2130706433}, {@code 127.1} and {@code 0x7f.0.0.1} are all
 * 127.0.0.1, as a client library connecting to them would find).
 */
final class IpLiterals {

    private static final Pattern IPV4_PARTS = Pattern.compile("(0[xX][0-9a-fA-F]*|[0-9]+)(\\.(0[xX][0-9a-fA-F]*|[0-9]+)){0,3}");
    private static final Pattern IPV6 = Pattern.compile("\\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(%[\\w.]+)?]?");

    private IpLiterals() {
    }

    /** The address a host names when it is an IP literal; empty for a name (or a malformed literal). */
    static Optional<InetAddress> parse(String host) {
        if (IPV4_PARTS.matcher(host).matches()) {
            return ipv4(host.split("\\.", -1));
        }
        if (IPV6.matcher(host).matches()) {
            String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            try {
                // A literal with a colon is never looked up; an IPv4-mapped one comes back as IPv4.
                return Optional.of(InetAddress.getByName(bare.contains("%") ? bare.substring(0, bare.indexOf('%')) : bare));
            } catch (UnknownHostException malformed) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static Optional<InetAddress> ipv4(String[] parts) {
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
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
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
}
