package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.donordata.domain.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one table of refused addresses (docs/api.md, Webhooks; docs/security.md, Webhooks), as the registration reads an
 * IP literal; the sender asks the same {@link WebhookAddresses#permits} of the address it connects to.
 */
class WebhookAddressesTest {

    private static final WebhookUrl.Rules STRICT = WebhookUrl.Rules.STRICT;

    // One address in every refused range, the edges of some, and every address the attack of issue 33 got through.
    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "0.1.2.3", "10.0.0.1", "100.64.0.1", "100.127.255.254", "127.0.0.1",
            "168.63.129.16", "169.254.169.254", "172.16.0.1", "192.0.0.1", "192.0.0.9", "192.0.0.170", "192.0.0.192",
            "192.0.2.1", "192.88.99.1", "192.168.0.1", "198.18.0.1", "198.19.255.255", "198.51.100.1", "203.0.113.1",
            "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
            "[::]", "[::1]", "[::127.0.0.1]", "[::ffff:127.0.0.1]", "[::ffff:192.0.0.192]", "[::ffff:0:7f00:1]",
            "[::ffff:0:8.8.8.8]", "[64:ff9b::808:808]", "[64:ff9b:1::1]", "[100::1]", "[100:0:0:1::1]", "[1000::1]",
            "[2001::1]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[2001:2::1]", "[2001:10::1]", "[2001:1ff:ffff::1]",
            "[2001:db8::1]", "[2002:c000:201::1]", "[3fff::1]", "[4000::1]", "[5f00::1]", "[fc00::1]",
            "[fd00:ec2::254]", "[fe80::1]", "[fec0::1]", "[ff02::1]"})
    void refusesEveryAddressNotGloballyReachable(String host) {
        assertFalse(WebhookAddresses.STRICT.permits(IpAddress.parse(host).orElseThrow()), host);
        Problem problem = WebhookUrl.problem("url", "https://" + host + "/hook", STRICT);
        assertNotNull(problem, host);
        assertTrue(problem.toString().contains("refused address"), problem.toString());
    }

    // A globally reachable address of each family, the neighbours of refused ranges, and an IPv4-mapped one (judged by
    // the IPv4 address inside).
    @ParameterizedTest
    @ValueSource(strings = {"93.184.215.14", "8.8.8.8", "168.63.129.17", "192.0.1.1", "192.0.3.1", "192.88.98.1",
            "198.17.255.255", "198.20.0.1", "198.51.101.1", "203.0.114.1", "223.255.255.255",
            "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]", "[2001:4860:4860::8888]", "[2001:200::1]", "[2001:db9::1]",
            "[2003::1]", "[3ffe::1]", "[::ffff:8.8.8.8]"})
    void permitsGloballyReachableAddresses(String host) {
        assertTrue(WebhookAddresses.STRICT.permits(IpAddress.parse(host).orElseThrow()), host);
        assertNull(WebhookUrl.problem("url", "https://" + host + "/hook", STRICT), host);
    }

    @Test
    void anAllowedNetworkOpensARefusedRange() {
        WebhookAddresses allowing = WebhookAddresses.allowing("198.18.0.0/15, fec0::/10");

        assertTrue(allowing.permits(IpAddress.parse("198.18.0.1").orElseThrow()));
        assertTrue(allowing.permits(IpAddress.parse("fec0::1").orElseThrow()));
        assertFalse(allowing.permits(IpAddress.parse("192.0.2.1").orElseThrow()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://93.184.215.14:0/hook", "https://93.184.215.14:65536/hook",
            "https://93.184.215.14:99999/hook", "https://crm.example.org:0/hook", "https://crm.example.org:99999/hook"})
    void refusesAPortOutside1To65535(String url) {
        Problem problem = WebhookUrl.problem("url", url, STRICT);
        assertNotNull(problem, url);
        assertTrue(problem.toString().contains("port from 1 to 65535"), problem.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://93.184.215.14:1/hook", "https://93.184.215.14:65535/hook",
            "https://crm.example.org:/hook", "https://crm.example.org/hook"})
    void takesAPortFrom1To65535OrNone(String url) {
        assertNull(WebhookUrl.problem("url", url, STRICT), url);
    }
}
