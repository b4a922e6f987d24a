package org.donordata.domain.webhooks;

import java.math.BigInteger;

/** A CIDR range of IPv4 or IPv6 addresses, such as {@code 10.0.0.0/8} or {@code fc00::/7}. */
public record NetworkRange(IpAddress network, int prefixLength) {

    public NetworkRange {
        int bits = network.bytes().length * 8;
        if (prefixLength < 0 || prefixLength > bits) {
            throw new IllegalArgumentException("a prefix of " + bits + " bits at most");
        }
    }

    /**
     * A range as CIDR writes it, an IPv4 address as four decimal numbers (so {@code 10/8} is refused, not read as
     * 0.0.0.10/8 as a C resolver would); an address alone is a range of one.
     *
     * @throws IllegalArgumentException when it is no such range (a host name is not resolved: it is refused)
     */
    public static NetworkRange parse(String cidr) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String written = slash < 0 ? text : text.substring(0, slash);
        if (!written.contains(":") && !IpAddress.isDottedQuad(written)) {
            throw new IllegalArgumentException("not an IP address written out in full: " + text);
        }
        IpAddress address = IpAddress.parse(written)
                .orElseThrow(() -> new IllegalArgumentException("not an IP address: " + text));
        int bits = address.bytes().length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String length = text.substring(slash + 1);
            if (!length.matches("\\d{1,3}") || Integer.parseInt(length) > bits) {
                throw new IllegalArgumentException("not a prefix length of 0 to " + bits + ": " + text);
            }
            prefix = Integer.parseInt(length);
        }
        return new NetworkRange(address, prefix);
    }

    /** Whether the address lies in this range (an IPv4 address is never in an IPv6 range, nor the other way). */
    public boolean contains(IpAddress address) {
        byte[] bytes = address.bytes();
        byte[] first = network.bytes();
        if (bytes.length != first.length) {
            return false;
        }
        int total = first.length * 8;
        BigInteger mask = prefixLength == 0 ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(prefixLength).subtract(BigInteger.ONE).shiftLeft(total - prefixLength);
        return new BigInteger(1, bytes).and(mask).equals(new BigInteger(1, first).and(mask));
    }

    @Override
    public String toString() {
        return network + "/" + prefixLength;
    }
}
