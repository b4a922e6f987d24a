package org.donordata.domain.webhooks;

import java.util.Arrays;
import java.util.List;

/**
 * Where webhook messages may not go (contract section 16): loopback, private, link-local, shared, multicast, broadcast
 * and unspecified addresses, unless a range the operator allows holds them ({@code DONORS_WEBHOOKS_ALLOW_NETWORKS}).
 * Checked on an IP literal when an endpoint is registered, and on the address actually connected to at every delivery,
 * so that no name can route a message to the service's own network. IPv6 ranges that carry an IPv4 address to a
 * gateway (NAT64, 6to4, Teredo) are refused whole, since the IPv4 address inside may be any of the above; an
 * IPv4-mapped address ({@code ::ffff:10.0.0.1}) is read as its IPv4 address.
 */
public record WebhookAddresses(List<NetworkRange> allowed) {

    /** The refused ranges, each with what it is. */
    public static final List<NetworkRange> REFUSED = List.of(
            NetworkRange.parse("0.0.0.0/8"),          // unspecified, "this network"
            NetworkRange.parse("10.0.0.0/8"),         // private (RFC 1918)
            NetworkRange.parse("100.64.0.0/10"),      // shared (carrier-grade NAT)
            NetworkRange.parse("127.0.0.0/8"),        // loopback
            NetworkRange.parse("169.254.0.0/16"),     // link-local, and cloud metadata services
            NetworkRange.parse("172.16.0.0/12"),      // private (RFC 1918)
            NetworkRange.parse("192.168.0.0/16"),     // private (RFC 1918)
            NetworkRange.parse("224.0.0.0/4"),        // multicast
            NetworkRange.parse("240.0.0.0/4"),        // reserved, and the broadcast address
            NetworkRange.parse("::/96"),              // unspecified, loopback, and IPv4-compatible (::127.0.0.1)
            NetworkRange.parse("64:ff9b::/96"),       // NAT64: an IPv4 address inside, reached through a gateway
            NetworkRange.parse("64:ff9b:1::/48"),     // local-use NAT64
            NetworkRange.parse("2001::/32"),          // Teredo: an IPv4 address inside
            NetworkRange.parse("2002::/16"),          // 6to4: an IPv4 address inside
            NetworkRange.parse("fc00::/7"),           // unique local (private)
            NetworkRange.parse("fe80::/10"),          // link-local
            NetworkRange.parse("ff00::/8"));          // multicast

    /** None allowed: every refused range is refused. */
    public static final WebhookAddresses STRICT = new WebhookAddresses(List.of());

    public WebhookAddresses {
        allowed = List.copyOf(allowed);
    }

    /**
     * The ranges of {@code DONORS_WEBHOOKS_ALLOW_NETWORKS}: CIDR ranges separated by commas; blank allows none.
     *
     * @throws IllegalArgumentException naming the first entry that is no range
     */
    public static WebhookAddresses allowing(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return STRICT;
        }
        return new WebhookAddresses(Arrays.stream(commaSeparated.split(",", -1)).map(NetworkRange::parse).toList());
    }

    /** Whether a message may go to this address. */
    public boolean permits(IpAddress address) {
        return allowed.stream().anyMatch(range -> range.contains(address))
                || REFUSED.stream().noneMatch(range -> range.contains(address));
    }
}
