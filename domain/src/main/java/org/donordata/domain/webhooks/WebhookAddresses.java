package org.donordata.domain.webhooks;

import java.util.Arrays;
import java.util.List;

/**
 * Where webhook messages may not go (docs/api.md, Webhooks; docs/security.md, Webhooks): every range IANA's IPv4 and
 * IPv6 special-purpose address registries mark as not globally reachable, and a few more (below), unless a range the
 * operator allows holds them ({@code DONORS_WEBHOOKS_ALLOW_NETWORKS}). The one rule both checks use: on an IP literal
 * when an endpoint is registered, and on the address actually connected to at every delivery, so that no name can
 * route a message to the service's own network. An IPv4-mapped address ({@code ::ffff:10.0.0.1}) is read as its IPv4
 * address ({@link IpAddress}), so it is judged by the IPv4 rows.
 *
 * <p>Where a registry marks a few service addresses inside a refused block globally reachable (the anycast addresses
 * 192.0.0.9, 192.0.0.10 and 2001:1::1 to ::3, AMT 2001:3::/32, AS112 2001:4:112::/48, ORCHIDv2 2001:20::/28, drone
 * identities 2001:30::/28), the block is refused whole: no webhook receiver lives at a protocol's service address, and
 * an operator who needs one can allow it.
 */
public record WebhookAddresses(List<NetworkRange> allowed) {

    /** The refused ranges, each with what it is: data, so that the rule reads as the registries do. */
    public static final List<NetworkRange> REFUSED = List.of(
            // IPv4 (IANA IPv4 Special-Purpose Address Registry, and the multicast space).
            NetworkRange.parse("0.0.0.0/8"),          // unspecified, "this network"
            NetworkRange.parse("10.0.0.0/8"),         // private (RFC 1918)
            NetworkRange.parse("100.64.0.0/10"),      // shared (carrier-grade NAT)
            NetworkRange.parse("127.0.0.0/8"),        // loopback
            NetworkRange.parse("168.63.129.16/32"),   // not IANA's: Azure's platform address (wireserver), which every
                                                      // Azure machine reaches, as it does a metadata service
            NetworkRange.parse("169.254.0.0/16"),     // link-local, and cloud metadata services
            NetworkRange.parse("172.16.0.0/12"),      // private (RFC 1918)
            NetworkRange.parse("192.0.0.0/24"),       // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
            NetworkRange.parse("192.0.2.0/24"),       // documentation (TEST-NET-1)
            NetworkRange.parse("192.88.99.0/24"),     // 6to4 relay anycast (deprecated): a relay, no receiver
            NetworkRange.parse("192.168.0.0/16"),     // private (RFC 1918)
            NetworkRange.parse("198.18.0.0/15"),      // benchmarking
            NetworkRange.parse("198.51.100.0/24"),    // documentation (TEST-NET-2)
            NetworkRange.parse("203.0.113.0/24"),     // documentation (TEST-NET-3)
            NetworkRange.parse("224.0.0.0/4"),        // multicast
            NetworkRange.parse("240.0.0.0/4"),        // reserved, and the broadcast address 255.255.255.255
            // IPv6 outside 2000::/3, the only space IANA allocates for global unicast. It holds the registry's
            // unspecified ::, loopback ::1, IPv4-compatible ::a.b.c.d, SIIT's IPv4-translated ::ffff:0:a.b.c.d,
            // NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (an IPv4 address inside, reached through a gateway), discard-only
            // 100::/64, the dummy prefix 100:0:0:1::/64, SRv6 SIDs 5f00::/16, unique local fc00::/7, link-local
            // fe80::/10, the deprecated site-local fec0::/10, and multicast ff00::/8.
            NetworkRange.parse("::/3"),
            NetworkRange.parse("4000::/2"),
            NetworkRange.parse("8000::/1"),
            // IPv6 inside 2000::/3 (IANA IPv6 Special-Purpose Address Registry).
            NetworkRange.parse("2001::/23"),          // IETF protocol assignments: Teredo 2001::/32 (an IPv4
                                                      // address inside), benchmarking 2001:2::/48, ORCHID, ...
            NetworkRange.parse("2001:db8::/32"),      // documentation
            NetworkRange.parse("2002::/16"),          // 6to4: an IPv4 address inside
            NetworkRange.parse("3fff::/20"));         // documentation

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

    /**
     * Whether a message may go to this port of a URL, -1 for none written (the scheme's own): 1 to 65535 only, since
     * {@link java.net.URI} takes any number and a client would connect port 0 or 99999 as something else or not at all.
     */
    public static boolean permitsPort(int port) {
        return port == -1 || port >= 1 && port <= 65535;
    }
}
