package org.donordata.domain.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.donordata.domain.Problem;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    // Standard Webhooks' own example, which the npm package standardwebhooks 1.1.1 signs the same way (checked with
    // its Webhook.sign); the tests of delivery verify every message with that package itself.
    private static final WebhookSecret EXAMPLE = WebhookSecret.parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    @Test
    void signsAsStandardWebhooksDoes() {
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", WebhookSignature.header(List.of(EXAMPLE),
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void duringARotationBothSecretsSignSeparatedByASpace() {
        WebhookSecret next = WebhookSecret.make();
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);

        String both = WebhookSignature.header(List.of(next, EXAMPLE), "msg_1", 1, body);

        assertEquals(WebhookSignature.header(List.of(next), "msg_1", 1, body) + " "
                + WebhookSignature.header(List.of(EXAMPLE), "msg_1", 1, body), both);
        assertNotEquals(WebhookSignature.header(List.of(next), "msg_1", 2, body),
                WebhookSignature.header(List.of(next), "msg_1", 1, body), "the timestamp is signed");
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.header(List.of(), "msg_1", 1, body));
    }

    @Test
    void aMadeSecretIsStandardWebhooksOwnFormAndNeverPrinted() {
        WebhookSecret made = WebhookSecret.make();

        assertTrue(made.written().startsWith("whsec_"));
        assertEquals(32, Base64.getDecoder().decode(made.written().substring(6)).length);
        assertEquals(made, WebhookSecret.parse(made.written()));
        assertNotEquals(made, WebhookSecret.make());
        assertFalse(made.toString().contains(made.written().substring(6)));
    }

    @Test
    void aGivenSecretIsWhsecAndBase64Of24To64Bytes() {
        String bytes24 = Base64.getEncoder().encodeToString(varied(24));
        String bytes64 = Base64.getEncoder().encodeToString(varied(64));

        assertNull(WebhookSecret.problem("secret", "whsec_" + bytes24));
        assertNull(WebhookSecret.problem("secret", "whsec_" + bytes64));
        for (String wrong : new String[] {null, "", bytes24, "whsec_", "whsec_!!!notbase64",
                "whsec_" + Base64.getEncoder().encodeToString(varied(23)),
                "whsec_" + Base64.getEncoder().encodeToString(varied(65)), "WHSEC_" + bytes24}) {
            assertNotNull(WebhookSecret.problem("secret", wrong), String.valueOf(wrong));
            assertThrows(IllegalArgumentException.class, () -> WebhookSecret.parse(wrong));
        }
    }

    /** docs/api.md, Webhooks: a given secret's bytes hold at least 16 different values, so none is guessable. */
    @Test
    void aGivenSecretOfTooFewDifferentBytesIsRefused() {
        byte[] fifteen = varied(32);
        for (int i = 15; i < fifteen.length; i++) {
            fifteen[i] = fifteen[i % 15];
        }
        for (String weak : new String[] {"whsec_" + "A".repeat(32), "whsec_" + "A".repeat(86) + "==",
                "whsec_" + Base64.getEncoder().encodeToString("ab".repeat(12).getBytes(StandardCharsets.US_ASCII)),
                "whsec_" + Base64.getEncoder().encodeToString(fifteen)}) {
            Problem problem = WebhookSecret.problem("secret", weak);
            assertNotNull(problem, weak);
            assertTrue(problem.toString().contains("at least 16 different values"), problem.toString());
        }
        byte[] sixteen = varied(24);
        for (int i = 16; i < sixteen.length; i++) {
            sixteen[i] = sixteen[0];
        }
        assertNull(WebhookSecret.problem("secret", "whsec_" + Base64.getEncoder().encodeToString(sixteen)));
        assertNull(WebhookSecret.problem("secret", WebhookSecret.make().written()));
        // One stored before the rule came in still signs.
        assertEquals(24, WebhookSecret.parse("whsec_" + "A".repeat(32)).key().length);
    }

    /** Bytes of as many different values as there are bytes (up to 256). */
    private static byte[] varied(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 7 + 1);
        }
        return bytes;
    }
}
