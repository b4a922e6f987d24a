package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.donordata.domain.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookUrlTest {

    private static final WebhookUrl.Rules STRICT = WebhookUrl.Rules.STRICT;

    @ParameterizedTest
    @ValueSource(strings = {"https://crm.example.org/hooks/donors", "https://crm.example.org:8443/h?x=1",
            "https://93.184.215.14/hook", "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook",
            "HTTPS://crm.example.org/"})
    void takesAbsoluteHttpsUrlsOfPublicHosts(String url) {
        assertNull(WebhookUrl.problem("url", url, STRICT));
        assertEquals(url, WebhookUrl.of(url, STRICT).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "crm.example.org/hook", "/hook", "ftp://crm.example.org/", "http://crm.example.org/",
            "https://user:secret@crm.example.org/", "https://user@crm.example.org/", "https:///hook", "https://",
            "https://crm.example.org/a b", "https://crm.example.org/\n", "https://crm.example.org/#fragment",
            "javascript:alert(1)", "mailto:a@example.org"})
    void refusesWhatIsNoAbsoluteHttpsUrlOfAHost(String url) {
        assertNotNull(WebhookUrl.problem("url", url, STRICT), url);
        assertThrows(IllegalArgumentException.class, () -> WebhookUrl.of(url, STRICT));
    }

    @Test
    void plainHttpOnlyWhereAllowedAndAtMost2000Characters() {
        WebhookUrl.Rules http = new WebhookUrl.Rules(true, WebhookAddresses.STRICT);
        assertTrue(WebhookUrl.problem("url", "http://crm.example.org/", STRICT).toString()
                .contains("DONORS_WEBHOOKS_ALLOW_HTTP"));
        assertNull(WebhookUrl.problem("url", "http://crm.example.org/", http));
        String base = "https://crm.example.org/";
        assertNull(WebhookUrl.problem("url", base + "a".repeat(2000 - base.length()), STRICT));
        assertNotNull(WebhookUrl.problem("url", base + "a".repeat(2001 - base.length()), STRICT));
        assertNotNull(WebhookUrl.problem("url", null, STRICT));
    }

    // Every way a client library would reach a refused address by its number, and none by a name (names are checked
    // on the address connected to, at each delivery).
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "2130706433", "0177.0.0.1", "0", "0.0.0.0", "10.1.2.3",
            "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1",
            "255.255.255.255", "[::1]", "[::]", "[::ffff:127.0.0.1]", "[::ffff:169.254.169.254]", "[fd00::1]",
            "[fe80::1]", "[ff02::1]", "[::127.0.0.1]", "[::ffff:7f00:1]", "[64:ff9b::a00:1]", "[64:ff9b:1::1]",
            "[2002:a00:1::1]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"})
    void refusesEveryRefusedRangeWrittenAsAnAddress(String host) {
        Problem problem = WebhookUrl.problem("url", "https://" + host + "/hook", STRICT);
        assertNotNull(problem, host);
        assertTrue(problem.toString().contains("refused address"), problem.toString());
    }

    // java.net.URI finds no host in these (a last label must begin with a letter), and neither would a client.
    @ParameterizedTest
    @ValueSource(strings = {"127.1", "0x7f.0.0.1", "0x7f.1"})
    void refusesShortAndHexAddressesAsNoHost(String host) {
        assertNotNull(WebhookUrl.problem("url", "https://" + host + "/hook", STRICT), host);
        assertEquals("127.0.0.1", IpAddress.parse(host).orElseThrow().toString(), "inet_aton's reading");
    }

    private static IpAddress address(String literal) {
        return IpAddress.parse(literal).orElseThrow();
    }

    @Test
    void ipv6LiteralsAreReadByTheirRfcWithoutALookUp() {
        assertEquals("0:0:0:0:0:0:0:1", address("::1").toString());
        assertEquals("2001:db8:0:0:0:0:2:1", address("[2001:DB8::2:1]").toString());
        assertEquals("fe80:0:0:0:0:0:0:1", address("fe80::1%eth0").toString());
        assertEquals("0:0:0:0:0:0:7f00:1", address("::127.0.0.1").toString());
        assertEquals("10.0.0.1", address("::ffff:10.0.0.1").toString(), "IPv4-mapped is IPv4");
        assertEquals("10.0.0.1", address("0:0:0:0:0:ffff:a00:1").toString());
        assertEquals(address("1:2:3:4:5:6:7:8"), address("1:2:3:4:5:6:7:8"));
        for (String wrong : List.of("1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1::", "1:::2", "12345::",
                "g::1", "::1.2.3", "::256.0.0.1", "1.2.3.4::", "1:2:3:4:5:6:7:1.2.3.4", "::1:", "[::1")) {
            assertTrue(IpAddress.parse(wrong).isEmpty(), wrong);
        }
    }

    @Test
    void anAllowedNetworkLetsItsAddressesThrough() {
        WebhookUrl.Rules allowing = new WebhookUrl.Rules(false, WebhookAddresses.allowing("10.20.0.0/16, fd00::/8"));

        assertNull(WebhookUrl.problem("url", "https://10.20.3.4/hook", allowing));
        assertNull(WebhookUrl.problem("url", "https://[fd00::5]/hook", allowing));
        assertNotNull(WebhookUrl.problem("url", "https://10.21.3.4/hook", allowing));
        assertNotNull(WebhookUrl.problem("url", "https://127.0.0.1/hook", allowing));
    }

    @Test
    void addressesAreCheckedByRangeWithoutNameLookUps() throws Exception {
        WebhookAddresses strict = WebhookAddresses.STRICT;
        assertFalse(strict.permits(address("127.0.0.1")));
        assertFalse(strict.permits(address("::1")));
        assertTrue(strict.permits(address("93.184.215.14")));
        assertTrue(strict.permits(address("172.32.0.1")), "just outside 172.16.0.0/12");
        assertTrue(strict.permits(address("100.128.0.1")), "just outside 100.64.0.0/10");
        assertTrue(IpAddress.parse("crm.example.org").isEmpty(), "a name is no literal, and is not looked up");
        assertTrue(IpAddress.parse("256.1.1.1").isEmpty());
        assertTrue(IpAddress.parse("1.2.3.4.5").isEmpty());
        assertTrue(IpAddress.parse("4294967296").isEmpty());
        assertEquals(NetworkRange.parse("10.0.0.0/8"), NetworkRange.parse(" 10.0.0.0/8 "));
        for (String wrong : List.of("10/8", "172.16/12", "010.0.0.0/8", "0x0a.0.0.0/8", "256.0.0.0/8", "10.0.0.0/33", "::/129", "example.org/8", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8,")) {
            assertThrows(IllegalArgumentException.class, () -> WebhookAddresses.allowing(wrong), wrong);
        }
        assertEquals(WebhookAddresses.STRICT, WebhookAddresses.allowing(" "));
        byte[] shared = WebhookAddresses.REFUSED.getFirst().network().bytes();
        shared[0] = 93;
        assertFalse(WebhookAddresses.STRICT.permits(address("0.0.0.1")), "the refused ranges are no one's to change");
    }

    @Test
    void retriesFollowTheScheduleItsLastDelayRepeating() {
        RetrySchedule schedule = RetrySchedule.parse("5, 30,120");

        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofSeconds(120)),
                List.of(schedule.after(1), schedule.after(2), schedule.after(3), schedule.after(50)));
        assertEquals(Duration.ofSeconds(7200), RetrySchedule.DEFAULT.after(100));
        for (String wrong : List.of("", "5,,30", "0", "-5", "5s", "1.5", "99999999")) {
            assertThrows(IllegalArgumentException.class, () -> RetrySchedule.parse(wrong), wrong);
        }
        assertThrows(IllegalArgumentException.class, () -> schedule.after(0));
    }
}
