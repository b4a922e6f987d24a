package org.donordata.adapters.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;

import io.helidon.common.configurable.Resource;
import io.helidon.common.pki.Keys;
import io.helidon.common.tls.Tls;

/**
 * HTTPS from a PEM certificate chain and a PEM private key, as certbot and most CAs hand them out. Every problem
 * with the files stops the start with a message naming the setting and the file, not a stack of PKI internals. Read
 * here, where the settings are, and handed to the transport as a {@link Tls}.
 */
final class ServerTls {

    /** TLS 1.0 and 1.1 are broken (RFC 8996); 1.2 stays for older clients. */
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private static final String CERTIFICATE = "The TLS certificate file";
    private static final String KEY = "The TLS private key file";
    private static final String CERT_FORM = "It must hold the server's certificate, then any intermediates, each as"
            + " -----BEGIN CERTIFICATE-----.";

    private ServerTls() {
    }

    static Tls create(HttpSettings.TlsFiles files) {
        List<X509Certificate> chain = certificates(files.certificate());
        PrivateKey key = privateKey(files.privateKey());
        requirePair(chain.getFirst(), key, files.certificate(), files.privateKey());
        return Tls.builder()
                .privateKey(key)
                .privateKeyCertChain(chain)
                .enabledProtocols(PROTOCOLS)
                .build();
    }

    private static List<X509Certificate> certificates(Path file) {
        byte[] pem = read(CERTIFICATE, file);
        List<X509Certificate> chain;
        try {
            chain = Keys.builder().pem(it -> it.certChain(Resource.create(CERTIFICATE, pem))).build().certChain();
        } catch (RuntimeException unreadable) {
            throw problem(CERTIFICATE, file, "holds no readable PEM certificate", unreadable, CERT_FORM);
        }
        if (chain.isEmpty()) {
            throw problem(CERTIFICATE, file, "holds no PEM certificate", null, CERT_FORM);
        }
        return chain;
    }

    private static PrivateKey privateKey(Path file) {
        byte[] pem = read(KEY, file);
        try {
            return Keys.builder().pem(it -> it.key(Resource.create(KEY, pem))).build().privateKey()
                    .orElseThrow(() -> new IllegalStateException("no key found"));
        } catch (RuntimeException unreadable) {
            throw problem(KEY, file, "holds no usable PEM private key", unreadable, "It must be unencrypted"
                    + " PKCS#8 (-----BEGIN PRIVATE KEY-----) or PKCS#1 RSA (-----BEGIN RSA PRIVATE KEY-----);"
                    + " 'openssl pkcs8 -topk8 -nocrypt -in KEY -out key.pem' converts other forms.");
        }
    }

    // A key that does not belong to the certificate would only show as failed handshakes, so it is caught here.
    private static void requirePair(X509Certificate certificate, PrivateKey key, Path certificateFile, Path keyFile) {
        byte[] probe = "donor-service".getBytes(StandardCharsets.US_ASCII);
        try {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> key.getAlgorithm();
            };
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException | RuntimeException mismatch) {
            // reported below
        }
        throw new HttpSettingsException(HttpSettingsException.Setting.TLS_KEY, "The TLS private key " + keyFile
                + " does not belong to the first"
                + " certificate in " + certificateFile + "; the server's own"
                + " certificate must come first in the chain.");
    }

    private static byte[] read(String setting, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException missing) {
            throw problem(setting, file, "does not exist", null, "");
        } catch (IOException | SecurityException unreadable) {
            throw problem(setting, file, "cannot be read", unreadable, "");
        }
    }

    // The cause's own words are kept (they say what was wrong in the file), its stack is not.
    private static HttpSettingsException problem(String setting, Path file, String what, Exception cause,
            String remedy) {
        String detail = "";
        if (cause != null) {
            String words = cause.getMessage();
            detail = " (" + (words == null || words.equals(file.toString()) ? cause.getClass().getSimpleName() : words) + ")";
        }
        return new HttpSettingsException(setting.equals(CERTIFICATE) ? HttpSettingsException.Setting.TLS_CERTIFICATE
                : HttpSettingsException.Setting.TLS_KEY, setting + " " + file + " " + what + detail + "."
                + (remedy.isEmpty() ? "" : " " + remedy));
    }
}
