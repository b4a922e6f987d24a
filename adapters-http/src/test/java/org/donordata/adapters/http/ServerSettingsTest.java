package org.donordata.adapters.http;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What {@link HttpApi#server(HttpSettings)} refuses to build, and how it says so. Nothing here is started. */
class ServerSettingsTest {

    private static final HttpApi API = new ApiFixture().api();

    @TempDir
    static Path directory;
    private static TestCertificate certificate;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = TestCertificate.shared();
    }

    @Test
    void defaults_areTheDocumentedOnes() {
        HttpSettings defaults = HttpSettings.defaults("127.0.0.1", 8080);

        assertAll(
                () -> assertEquals(Optional.empty(), defaults.tlsCertificate()),
                () -> assertFalse(defaults.allowPlainHttp()),
                () -> assertEquals(1_000, defaults.maxConnections()),
                () -> assertEquals(200, defaults.maxConcurrentRequests()),
                () -> assertEquals(Duration.ofSeconds(20), defaults.readTimeout()),
                () -> assertEquals(1_000, defaults.requestsPerSecond()),
                () -> assertEquals(2_000, defaults.requestBurst()),
                () -> assertEquals(20, defaults.authFailuresPerMinute()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "192.0.2.10", "no-such-host.invalid"})
    void plainHttpOffLoopback_isRefusedNamingTheSettings(String host) {
        String message = assertThrows(IllegalArgumentException.class,
                () -> API.server(HttpSettings.defaults(host, 0))).getMessage();

        for (String named : new String[] {"DONORS_ALLOW_PLAIN_HTTP", "DONORS_TLS_CERT", "DONORS_TLS_KEY", host}) {
            assertTrue(message.contains(named), () -> named + " in " + message);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "localhost", "::1"})
    void plainHttpOnLoopback_isBuilt(String host) {
        assertNotNull(API.server(HttpSettings.defaults(host, 0)));
    }

    @Test
    void plainHttpOffLoopback_isBuiltWhenAllowed() {
        assertNotNull(API.server(HttpSettings.defaults("0.0.0.0", 0).withAllowPlainHttp(true)));
    }

    @Test
    void tlsOffLoopback_isBuilt() {
        assertNotNull(API.server(HttpSettings.defaults("0.0.0.0", 0)
                .withTls(certificate.certificateFile(), certificate.keyFile())));
    }

    @Test
    void certificateWithoutKey_isRefused() {
        String message = assertThrows(IllegalArgumentException.class, () -> new HttpSettings("127.0.0.1", 0,
                Optional.of(certificate.certificateFile()), Optional.empty(), false, 1, 1, Duration.ofSeconds(1), 1, 1, 1))
                .getMessage();

        assertEquals("DONORS_TLS_CERT and DONORS_TLS_KEY must be set together: DONORS_TLS_KEY is missing.", message);
    }

    @Test
    void missingFile_isNamed() {
        Path missing = directory.resolve("nothing.pem");

        assertEquals("DONORS_TLS_CERT names " + missing + ", which does not exist.", refusal(missing, certificate.keyFile()));
        assertEquals("DONORS_TLS_KEY names " + missing + ", which does not exist.",
                refusal(certificate.certificateFile(), missing));
    }

    @Test
    void filesThatAreNotPem_areNamed() throws Exception {
        Path garbage = Files.writeString(directory.resolve("garbage.pem"), "not a PEM file\n");

        assertTrue(refusal(garbage, certificate.keyFile()).startsWith("DONORS_TLS_CERT names " + garbage
                + ", which holds no"), refusal(garbage, certificate.keyFile()));
        assertTrue(refusal(certificate.certificateFile(), garbage).startsWith("DONORS_TLS_KEY names " + garbage
                + ", which holds no usable PEM private key"), refusal(certificate.certificateFile(), garbage));
        // The key and the certificate swapped, as happens when copying them by hand.
        assertTrue(refusal(certificate.keyFile(), certificate.certificateFile()).startsWith("DONORS_TLS_CERT names"));
    }

    @Test
    void keyOfAnotherCertificate_isRefused() throws Exception {
        Path otherKey = Files.writeString(directory.resolve("other-key.pem"), TestCertificate.otherKeyPem());

        String message = refusal(certificate.certificateFile(), otherKey);

        assertTrue(message.startsWith("The private key in DONORS_TLS_KEY (" + otherKey + ") does not belong to the"
                + " first certificate in DONORS_TLS_CERT"), message);
    }

    @Test
    void refusals_carryNoStackOfInternals() throws Exception {
        Path garbage = Files.writeString(directory.resolve("empty.pem"), "");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> API.server(
                HttpSettings.defaults("127.0.0.1", 0).withTls(certificate.certificateFile(), garbage)));
        assertNull(refused.getCause());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void limitsBelowOne_areRefused(int value) {
        HttpSettings defaults = HttpSettings.defaults("127.0.0.1", 0);

        assertThrows(IllegalArgumentException.class, () -> defaults.withMaxConnections(value));
        assertThrows(IllegalArgumentException.class, () -> defaults.withMaxConcurrentRequests(value));
        assertThrows(IllegalArgumentException.class, () -> defaults.withRateLimit(value, 10));
        assertThrows(IllegalArgumentException.class, () -> defaults.withRateLimit(10, value));
        assertThrows(IllegalArgumentException.class, () -> defaults.withReadTimeout(Duration.ofMillis(value)));
    }

    private static String refusal(Path certificateFile, Path keyFile) {
        return assertThrows(IllegalArgumentException.class, () -> API.server(
                HttpSettings.defaults("127.0.0.1", 0).withTls(certificateFile, keyFile))).getMessage();
    }
}
