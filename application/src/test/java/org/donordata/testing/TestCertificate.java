package org.donordata.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with the JDK's own keytool and written as the PEM
 * files an operator would have: {@code cert.pem} and {@code key.pem} (PKCS#8). For the service's TLS port and for
 * the https receivers the webhook tests run, so it lives with the tests' shared helpers.
 */
public record TestCertificate(Path certificateFile, Path keyFile, X509Certificate certificate, PrivateKey key) {

    private static final char[] PASSWORD = "changeit".toCharArray();
    private static TestCertificate shared;

    /** One certificate for every test class: keytool takes most of a second. */
    public static synchronized TestCertificate shared() throws IOException, GeneralSecurityException, InterruptedException {
        if (shared == null) {
            Path directory = Files.createTempDirectory("donors-tls");
            shared = create(directory);
            // Deleted in the reverse order of registration: the files, then their directory.
            for (Path file : List.of(directory, directory.resolve("server.p12"), shared.certificateFile, shared.keyFile)) {
                file.toFile().deleteOnExit();
            }
        }
        return shared;
    }

    public static TestCertificate create(Path directory) throws IOException, GeneralSecurityException, InterruptedException {
        Path keystore = directory.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("keytool did not end within 60 s: " + output);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD);
        }
        X509Certificate certificate = (X509Certificate) store.getCertificate("server");
        PrivateKey key = (PrivateKey) store.getKey("server", PASSWORD);
        Path certificateFile = Files.writeString(directory.resolve("cert.pem"), pem("CERTIFICATE", certificate.getEncoded()));
        Path keyFile = Files.writeString(directory.resolve("key.pem"), pem("PRIVATE KEY", key.getEncoded()));
        return new TestCertificate(certificateFile, keyFile, certificate, key);
    }

    /** A PEM private key that belongs to no certificate. */
    public static String otherKeyPem() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        return pem("PRIVATE KEY", generator.generateKeyPair().getPrivate().getEncoded());
    }

    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** A PKCS#12 trust store, password {@code changeit}, holding this certificate only, written to {@code file}. */
    public Path trustStore(Path file) throws GeneralSecurityException, IOException {
        try (var out = Files.newOutputStream(file)) {
            trusted().store(out, PASSWORD);
        }
        return file;
    }

    private KeyStore trusted() throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", certificate);
        return trusted;
    }

    /** A client context that trusts this certificate only. */
    public SSLContext clientContext() throws GeneralSecurityException, IOException {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** A server context with this certificate, for control experiments outside Helidon. */
    public SSLContext serverContext() throws GeneralSecurityException, IOException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("server", key, PASSWORD, new X509Certificate[] {certificate});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }
}
