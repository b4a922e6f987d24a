package org.donordata.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1, made with the JDK's keytool, for an https webhook receiver: the PEM files the
 * receiver serves with, and a trust store holding only this certificate, which the service is told to trust as an
 * operator trusts a private CA (the JDK's {@code javax.net.ssl.trustStore}, given here through
 * {@code JAVA_TOOL_OPTIONS}, as {@code DONORS_JAVA_OPTS} gives it to bin/serve).
 */
record ReceiverCertificate(Path certificateFile, Path keyFile, Path trustStore, X509Certificate certificate) {

    private static final String PASSWORD = "changeit";

    static ReceiverCertificate create(Path directory) throws IOException, GeneralSecurityException,
            InterruptedException {
        Path keystore = directory.resolve("receiver.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "receiver", "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        X509Certificate certificate = (X509Certificate) keys.getCertificate("receiver");
        PrivateKey key = (PrivateKey) keys.getKey("receiver", PASSWORD.toCharArray());
        Path certificateFile = Files.writeString(directory.resolve("receiver-cert.pem"),
                pem("CERTIFICATE", certificate.getEncoded()));
        Path keyFile = Files.writeString(directory.resolve("receiver-key.pem"), pem("PRIVATE KEY", key.getEncoded()));
        Path trustStore = directory.resolve("trusted.p12");
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trusted(certificate).store(out, PASSWORD.toCharArray());
        }
        return new ReceiverCertificate(certificateFile, keyFile, trustStore, certificate);
    }

    /** The environment that makes a service's JVM trust this certificate, and nothing else, for its https clients. */
    Map<String, String> trustingEnvironment() {
        return Map.of("JAVA_TOOL_OPTIONS", "-Djavax.net.ssl.trustStore=" + trustStore
                + " -Djavax.net.ssl.trustStorePassword=" + PASSWORD + " -Djavax.net.ssl.trustStoreType=PKCS12");
    }

    /** A client context that trusts this certificate only (the test's own requests to the receiver). */
    SSLContext clientContext() throws GeneralSecurityException, IOException {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted(certificate));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore trusted(X509Certificate certificate) throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("receiver", certificate);
        return trusted;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
