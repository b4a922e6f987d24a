package org.donordata.adapters.http.webhooks;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonValue;

import org.donordata.application.ApplicationId;
import org.donordata.application.ChangeTokens;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRequest;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;

/** Webhook endpoints as the API reads and writes them (docs/api.md, "Webhooks"). */
final class WebhookJson {

    private static final List<String> MEMBERS = List.of("url", "description", "secret", "ignore_keys", "state", "since");
    private static final BigDecimal LARGEST_ID = BigDecimal.valueOf(Long.MAX_VALUE);

    private WebhookJson() {
    }

    /**
     * A create's or modify's members, their JSON types checked; the use case checks their values.
     *
     * @throws InvalidInputException naming every member at fault, and every member no endpoint has
     */
    static WebhookRequest request(Map<String, Object> body, ApplicationId owner, ChangeTokens tokens) {
        List<Problem> problems = new ArrayList<>();
        body.keySet().stream().filter(name -> !MEMBERS.contains(name)).forEach(name -> problems.add(new Problem(
                Problem.quoted(name), "is not a member of a webhook endpoint; its members are " + String.join(", ",
                        MEMBERS))));
        Optional<ChangePosition> since = Optional.empty();
        Optional<String> token = text(body, "since", problems);
        if (token.isPresent()) {
            try {
                since = Optional.of(tokens.decode(owner, token.get()));
            } catch (InvalidInputException refused) {
                problems.addAll(refused.problems());
            }
        }
        WebhookRequest request = new WebhookRequest(text(body, "url", problems), text(body, "description", problems),
                text(body, "secret", problems), keyIds(body, problems), text(body, "state", problems), since);
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return request;
    }

    /** A rotation's {@code grace_seconds}, when given: a whole number (its range is the use case's to check). */
    static Optional<Long> graceSeconds(Map<String, Object> body) {
        List<Problem> problems = new ArrayList<>();
        body.keySet().stream().filter(name -> !name.equals("grace_seconds")).forEach(name -> problems.add(new Problem(
                Problem.quoted(name), "is not a member of a rotation; it takes only \"grace_seconds\"")));
        Optional<Long> grace = Optional.empty();
        if (body.containsKey("grace_seconds")) {
            Object value = body.get("grace_seconds");
            if (value instanceof JsonNumber number && isWhole(number.bigDecimalValue(), false)) {
                grace = Optional.of(number.bigDecimalValue().longValueExact());
            } else {
                problems.add(new Problem("grace_seconds", "must be a whole number of seconds from 0 to 604800"));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return grace;
    }

    private static Optional<String> text(Map<String, Object> body, String name, List<Problem> problems) {
        if (!body.containsKey(name)) {
            return Optional.empty();
        }
        if (body.get(name) instanceof String text) {
            return Optional.of(text);
        }
        problems.add(new Problem(name, "must be a string"));
        return Optional.empty();
    }

    private static Optional<List<Long>> keyIds(Map<String, Object> body, List<Problem> problems) {
        if (!body.containsKey("ignore_keys")) {
            return Optional.empty();
        }
        if (!(body.get("ignore_keys") instanceof JsonArray array)) {
            problems.add(new Problem("ignore_keys", "must be an array of key ids"));
            return Optional.empty();
        }
        List<Long> ids = new ArrayList<>();
        for (JsonValue value : array) {
            if (value instanceof JsonNumber number && isWhole(number.bigDecimalValue(), true)) {
                ids.add(number.bigDecimalValue().longValueExact());
            } else {
                problems.add(new Problem("ignore_keys", "must be an array of key ids (positive whole numbers)"));
                return Optional.empty();
            }
        }
        return Optional.of(ids);
    }

    /** Compared before anything is scaled, so that {@code 1e999999999} costs nothing. */
    private static boolean isWhole(BigDecimal value, boolean positive) {
        return value.signum() >= (positive ? 1 : 0) && value.compareTo(LARGEST_ID) <= 0
                && value.stripTrailingZeros().scale() <= 0;
    }

    static void endpoints(JsonGenerator json, List<WebhookEndpoint> endpoints, ChangeTokens tokens) throws IOException {
        json.writeStartArray();
        for (WebhookEndpoint endpoint : endpoints) {
            endpoint(json, endpoint, tokens);
        }
        json.writeEndArray();
    }

    private static void endpoint(JsonGenerator json, WebhookEndpoint endpoint, ChangeTokens tokens) throws IOException {
        json.writeStartObject();
        json.writeNumberField("id", endpoint.id());
        json.writeStringField("url", endpoint.url().uri().toString());
        json.writeStringField("description", endpoint.description());
        json.writeStringField("state", endpoint.state().enabled() ? "enabled" : "disabled");
        json.writeStringField("disabled_reason", endpoint.state().disabledReason().orElse(null));
        json.writeArrayFieldStart("ignore_keys");
        for (long key : sorted(endpoint.ignoreKeys())) {
            json.writeNumber(key);
        }
        json.writeEndArray();
        instant(json, "created_at", Optional.of(endpoint.createdAt()));
        json.writeStringField("delivered_through", tokens.encode(endpoint.owner(), endpoint.state().deliveredThrough()));
        instant(json, "last_success_at", endpoint.state().lastSuccessAt());
        instant(json, "last_failure_at", endpoint.state().lastFailureAt());
        json.writeStringField("last_failure", endpoint.state().lastFailure().orElse(null));
        json.writeNumberField("consecutive_failures", endpoint.state().consecutiveFailures());
        json.writeEndObject();
    }

    static void secret(JsonGenerator json, WebhookEndpoint endpoint) throws IOException {
        json.writeStartArray();
        json.writeStartObject();
        json.writeStringField("secret", endpoint.secret().written());
        json.writeEndObject();
        json.writeEndArray();
    }

    private static List<Long> sorted(Set<Long> keys) {
        return keys.stream().sorted().toList();
    }

    private static void instant(JsonGenerator json, String name, Optional<Instant> instant) throws IOException {
        json.writeStringField(name, instant.map(Instant::toString).orElse(null));
    }
}
