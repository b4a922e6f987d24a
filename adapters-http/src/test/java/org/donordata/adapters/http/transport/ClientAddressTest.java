package org.donordata.adapters.http.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;

import io.helidon.webserver.WebServer;
import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.RawHttpClient;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client's address is its connection's peer, never what a header says: any client can write X-Forwarded-For,
 * Forwarded or X-Real-IP (docs/security.md, Limits). Wrong keys are counted under the peer (3 a minute here), so a
 * client can neither escape the throttle by claiming other addresses nor have another address throttled by claiming
 * it. (The cap on connections per address is decided before a byte of a request is read.) Under the peer means under
 * its {@link ClientAddress#key}: for IPv6, its /64.
 */
class ClientAddressTest {

    private static final ApiFixture FIXTURE = new ApiFixture();
    private static WebServer server;

    @BeforeAll
    static void start() {
        server = FIXTURE.api().server(SettingsBuilder.loopback().authFailuresPerMinute(3).build()).start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void wrongKeysAreCountedUnderThePeer_whateverAddressAHeaderClaims() throws IOException {
        assertEquals(401, wrongKey("127.0.0.2", "X-Forwarded-For: 198.51.100.1"));
        assertEquals(401, wrongKey("127.0.0.2", "Forwarded: for=198.51.100.2"));
        assertEquals(401, wrongKey("127.0.0.2", "X-Real-IP: 198.51.100.3"));

        assertEquals(429, wrongKey("127.0.0.2", "X-Forwarded-For: 198.51.100.4"), "throttled as the peer it is");
        assertEquals(401, wrongKey("127.0.0.1", "X-Forwarded-For: 127.0.0.2"),
                "another peer claiming the throttled address is not throttled for it");
        assertEquals(429, wrongKey("127.0.0.2", "X-Forwarded-For: 127.0.0.1"));
    }

    @Test
    void key_isTheAddress_orForIpv6ItsSlash64() {
        assertEquals("192.0.2.7", ClientAddress.key(new InetSocketAddress("192.0.2.7", 4242)));
        assertEquals("2001:db8:1:2:0:0:0:0/64", ClientAddress.key(new InetSocketAddress("2001:db8:1:2:aaaa::1", 1)));
        assertEquals(ClientAddress.key(new InetSocketAddress("2001:db8:1:2::1", 1)),
                ClientAddress.key(new InetSocketAddress("2001:db8:1:2:ffff:ffff:ffff:ffff", 1)));
        assertEquals("localhost", ClientAddress.key(InetSocketAddress.createUnresolved("localhost", 1)));
    }

    private static int wrongKey(String from, String claim) throws IOException {
        try (RawHttpClient client = new RawHttpClient(server.port(), from)) {
            return client.send("GET /api/v1 HTTP/1.1\r\nHost: x\r\napi-key: a-wrong-key\r\n" + claim + "\r\n\r\n").read()
                    .status();
        }
    }
}
