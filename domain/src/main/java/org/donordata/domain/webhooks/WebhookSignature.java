package org.donordata.domain.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code webhook-signature} header of a message (Standard Webhooks): {@code v1,} and the base64 of the
 * HMAC-SHA256, keyed by the secret's bytes, of {@code {webhook-id}.{webhook-timestamp}.{body}}; one such per secret,
 * separated by spaces, so that during a rotation's grace a receiver with either secret can verify it.
 */
public final class WebhookSignature {

    private static final String ALGORITHM = "HmacSHA256";

    private WebhookSignature() {
    }

    /**
     * @param secrets the endpoint's secrets in use: the current one, then the previous one during a rotation's grace
     * @param messageId the message's {@code webhook-id}
     * @param timestampSeconds this attempt's {@code webhook-timestamp}, Unix seconds
     * @param body the message's body, exactly as sent
     */
    public static String header(List<WebhookSecret> secrets, String messageId, long timestampSeconds, byte[] body) {
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("a message is signed with at least one secret");
        }
        byte[] signed = signedContent(messageId, timestampSeconds, body);
        return secrets.stream().map(secret -> "v1," + Base64.getEncoder().encodeToString(hmac(secret, signed)))
                .collect(Collectors.joining(" "));
    }

    private static byte[] signedContent(String messageId, long timestampSeconds, byte[] body) {
        byte[] prefix = (messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, content, 0, prefix.length);
        System.arraycopy(body, 0, content, prefix.length, body.length);
        return content;
    }

    private static byte[] hmac(WebhookSecret secret, byte[] content) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.key(), ALGORITHM));
            return mac.doFinal(content);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has " + ALGORITHM, e);
        }
    }
}
