package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import org.donordata.domain.webhooks.WebhookEventType;
import org.donordata.domain.webhooks.WebhookMessage;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookSignature;
import org.junit.jupiter.api.Test;

/**
 * The service's signatures as a receiver checks them with Standard Webhooks' own library (npm standardwebhooks, at
 * the pinned version, installed here by npm): not only with the project's own code.
 */
class StandardWebhooksVerifierTest {

    static final String STANDARD_WEBHOOKS = "standardwebhooks@1.1.1";

    private static final WebhookMessage MESSAGE = new WebhookMessage(7, WebhookEventType.DONOR_UPDATED,
            Instant.parse("2026-11-25T09:30:00.123456Z"), 42, 3, "AbC-_9", Optional.empty());
    private static final String BODY = new String(MESSAGE.body(), StandardCharsets.UTF_8);

    @Test
    void theReferenceLibraryAcceptsTheServicesSignaturesAndRefusesAnyOther() throws Exception {
        WebhookSecret old = WebhookSecret.make();
        WebhookSecret current = WebhookSecret.make();
        long now = Instant.now().getEpochSecond();
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        String id = MESSAGE.id();
        String signed = WebhookSignature.header(List.of(old), id, now, body);
        String duringRotation = WebhookSignature.header(List.of(current, old), id, now, body);

        List<String> verdicts = verify(Json.createArrayBuilder()
                .add(message(old, id, now, signed, BODY))
                .add(message(old, id, now, duringRotation, BODY))
                .add(message(current, id, now, duringRotation, BODY))
                .add(message(old, id, now, signed, BODY.replace("42", "43")))
                .add(message(current, id, now, signed, BODY))
                .add(message(old, "msg_9", now, signed, BODY)));

        assertEquals("ok", verdicts.get(0), "signed with the secret");
        assertEquals("ok", verdicts.get(1), "a rotation's two signatures, checked with the old secret");
        assertEquals("ok", verdicts.get(2), "and with the new one");
        for (int i = 3; i < 6; i++) {
            assertEquals("refused", verdicts.get(i).split(" ")[0], "a changed body, another secret, another id: " + i);
        }
    }

    private static jakarta.json.JsonObject message(WebhookSecret secret, String id, long timestamp, String signature,
            String body) {
        return Json.createObjectBuilder().add("secret", secret.written()).add("id", id).add("timestamp", timestamp)
                .add("signature", signature).add("body", body).build();
    }

    private static List<String> verify(JsonArrayBuilder messages) throws Exception {
        WebhookReceiver.install();
        Path input = WebhookReceiver.directory().resolve("messages.json");
        Files.writeString(input, messages.build().toString());
        ExternalTool run = ExternalTool.run(WebhookReceiver.directory(), 2, List.of("node", "verify.cjs",
                "messages.json"));
        assertEquals(0, run.exit(), run.output());
        return run.output().lines().filter(line -> line.startsWith("ok") || line.startsWith("refused")).toList();
    }
}
