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

import org.donordata.adapters.http.testing.ApiFixture;
import org.donordata.adapters.http.testing.SettingsBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.donordata.testing.TestCertificate;

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
                () -> assertEquals(Optional.empty(), defaults.tls()),
                () -> assertFalse(defaults.allowPlainHttp()),
                () -> assertEquals(1_000, defaults.maxConnections()),
                () -> assertEquals(128, defaults.maxConnectionsPerAddress()),
                () -> assertEquals(200, defaults.maxConcurrentRequests()),
                () -> assertEquals(Duration.ofSeconds(20), defaults.readTimeout()),
                () -> assertEquals(1_000, defaults.requestsPerSecond()),
                () -> assertEquals(2_000, defaults.requestBurst()),
                () -> assertEquals(20, defaults.authFailuresPerMinute()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "192.0.2.10", "no-such-host.invalid"})
    void plainHttpOffLoopback_isRefusedSayingWhatToDo(String host) {
        String message = assertThrows(IllegalArgumentException.class,
                () -> API.server(HttpSettings.defaults(host, 0))).getMessage();

        for (String named : new String[] {"TLS certificate and key", "allow plain HTTP", host}) {
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
        assertNotNull(API.server(SettingsBuilder.loopback().host("0.0.0.0").allowPlainHttp().build()));
    }

    @Test
    void tlsOffLoopback_isBuilt() {
        assertNotNull(API.server(SettingsBuilder.loopback().host("0.0.0.0")
                .tls(certificate.certificateFile(), certificate.keyFile()).build()));
    }

    @Test
    void certificateWithoutKey_isRefused() {
        assertThrows(NullPointerException.class, () -> new HttpSettings.TlsFiles(certificate.certificateFile(), null));
        assertThrows(NullPointerException.class, () -> new HttpSettings.TlsFiles(null, certificate.keyFile()));
    }

    @Test
    void missingFile_isNamed() {
        Path missing = directory.resolve("nothing.pem");

        assertEquals("The TLS certificate file " + missing + " does not exist.", refusal(missing, certificate.keyFile()));
        assertEquals("The TLS private key file " + missing + " does not exist.",
                refusal(certificate.certificateFile(), missing));
    }

    @Test
    void filesThatAreNotPem_areNamed() throws Exception {
        Path garbage = Files.writeString(directory.resolve("garbage.pem"), "not a PEM file\n");

        assertTrue(refusal(garbage, certificate.keyFile()).startsWith("The TLS certificate file " + garbage
                + " holds no"), refusal(garbage, certificate.keyFile()));
        assertTrue(refusal(certificate.certificateFile(), garbage).startsWith("The TLS private key file " + garbage
                + " holds no usable PEM private key"), refusal(certificate.certificateFile(), garbage));
        // The key and the certificate swapped, as happens when copying them by hand.
        assertTrue(refusal(certificate.keyFile(), certificate.certificateFile())
                .startsWith("The TLS certificate file"));
    }

    @Test
    void keyOfAnotherCertificate_isRefused() throws Exception {
        Path otherKey = Files.writeString(directory.resolve("other-key.pem"), TestCertificate.otherKeyPem());

        String message = refusal(certificate.certificateFile(), otherKey);

        assertTrue(message.startsWith("The TLS private key " + otherKey + " does not belong to the first certificate"
                + " in " + certificate.certificateFile()), message);
    }

    @Test
    void refusals_carryNoStackOfInternals() throws Exception {
        Path garbage = Files.writeString(directory.resolve("empty.pem"), "");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> API.server(
                SettingsBuilder.loopback().tls(certificate.certificateFile(), garbage).build()));
        assertNull(refused.getCause());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void limitsBelowOne_areRefused(int value) {
        assertThrows(IllegalArgumentException.class, () -> SettingsBuilder.loopback().maxConnections(value).build());
        assertThrows(IllegalArgumentException.class,
                () -> SettingsBuilder.loopback().maxConnectionsPerAddress(value).build());
        assertThrows(IllegalArgumentException.class,
                () -> SettingsBuilder.loopback().maxConcurrentRequests(value).build());
        assertThrows(IllegalArgumentException.class, () -> SettingsBuilder.loopback().rateLimit(value, 10).build());
        assertThrows(IllegalArgumentException.class, () -> SettingsBuilder.loopback().rateLimit(10, value).build());
        assertThrows(IllegalArgumentException.class,
                () -> SettingsBuilder.loopback().readTimeout(Duration.ofMillis(value)).build());
    }

    private static String refusal(Path certificateFile, Path keyFile) {
        return assertThrows(IllegalArgumentException.class, () -> API.server(
                SettingsBuilder.loopback().tls(certificateFile, keyFile).build())).getMessage();
    }
}
