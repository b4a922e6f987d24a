package org.donordata.application.webhooks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.donordata.application.ApiKey;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.DonorRepository;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;
import org.donordata.domain.WebhookLimitException;
import org.donordata.domain.WebhookNotFoundException;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;

/** Managing an application's webhook endpoints (docs/api.md, "Webhooks", scope {@code webhooks:manage}). */
public final class WebhookService {

    /** The most endpoints one application may have. */
    public static final int MAX_ENDPOINTS = 10;
    public static final int MAX_DESCRIPTION = 500;
    /** As many as the store is asked about at once when it passes a change over (WebhookDelivery). */
    public static final int MAX_IGNORED_KEYS = DonorRepository.MAX_KEYS_ASKED;
    public static final Duration DEFAULT_GRACE = Duration.ofDays(1);
    public static final Duration MAX_GRACE = Duration.ofDays(7);
    /** Why an endpoint its owner disabled is disabled. */
    static final String DISABLED_BY_OWNER = "disabled by its owner";
    private static final int ATTEMPTS = 5;

    private final WebhookRepository endpoints;
    private final ApplicationRepository applications;
    private final WebhookUrl.Rules urlRules;
    private final Clock clock;

    public WebhookService(WebhookRepository endpoints, ApplicationRepository applications, WebhookUrl.Rules urlRules,
            Clock clock) {
        this.endpoints = endpoints;
        this.applications = applications;
        this.urlRules = urlRules;
        this.clock = clock;
    }

    /**
     * Registers an endpoint; delivery starts with the changes committed after this call.
     *
     * @throws InvalidInputException naming every member at fault
     * @throws WebhookLimitException when the owner has {@value #MAX_ENDPOINTS} endpoints
     */
    public WebhookEndpoint create(ApplicationId owner, WebhookRequest request) {
        List<Problem> problems = new ArrayList<>();
        if (request.url().isEmpty()) {
            problems.add(new Problem("url", "is required: the https:// address to send messages to"));
        }
        Optional<WebhookUrl> url = request.url().flatMap(text -> url(text, problems));
        String description = request.description().map(text -> description(text, problems)).orElse("");
        WebhookSecret secret = request.secret().map(text -> {
            Problem problem = WebhookSecret.problem("secret", text);
            if (problem != null) {
                problems.add(problem);
                return null;
            }
            return WebhookSecret.parse(text);
        }).orElseGet(WebhookSecret::make);
        Set<Long> ignored = request.ignoreKeys().map(keys -> ignoredKeys(owner, keys, problems)).orElse(Set.of());
        request.state().ifPresent(unused -> problems.add(new Problem("state",
                "is not a member of a create: a new endpoint is enabled; modify it to disable it")));
        request.since().ifPresent(unused -> problems.add(new Problem("since",
                "is not a member of a create: delivery starts with the changes after it; modify it to replay")));
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return endpoints.create(owner, new WebhookRepository.NewEndpoint(url.orElseThrow(), description, secret, ignored),
                MAX_ENDPOINTS, now()).orElseThrow(() -> new WebhookLimitException(MAX_ENDPOINTS));
    }

    /** The owner's endpoints, oldest first. */
    public List<WebhookEndpoint> list(ApplicationId owner) {
        return endpoints.list(owner);
    }

    /** @throws WebhookNotFoundException when the owner has no such endpoint */
    public WebhookEndpoint get(ApplicationId owner, long id) {
        return endpoints.find(owner, id).orElseThrow(WebhookNotFoundException::new);
    }

    /**
     * Changes an endpoint: its url, description, ignored keys, state ({@code enabled} resumes exactly where delivery
     * stopped) or, with {@code since}, where delivery goes on from (a replay).
     *
     * @throws InvalidInputException naming every member at fault
     * @throws WebhookNotFoundException when the owner has no such endpoint
     */
    public WebhookEndpoint modify(ApplicationId owner, long id, WebhookRequest request) {
        List<Problem> problems = new ArrayList<>();
        Optional<WebhookUrl> url = request.url().flatMap(text -> url(text, problems));
        Optional<String> description = request.description().map(text -> description(text, problems));
        Optional<Set<Long>> ignored = request.ignoreKeys().map(keys -> ignoredKeys(owner, keys, problems));
        Optional<Boolean> enable = request.state().flatMap(state -> {
            if (!state.equals("enabled") && !state.equals("disabled")) {
                problems.add(new Problem("state", "must be \"enabled\" or \"disabled\""));
                return Optional.empty();
            }
            return Optional.of(state.equals("enabled"));
        });
        request.secret().ifPresent(unused -> problems.add(new Problem("secret",
                "cannot be modified: POST .../rotate-secret makes a new one, with a grace for the old one")));
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        // A request naming the state or a replay sets where delivery stands, even to what it was read as: a run may
        // have moved it since (disabled it, say), and the request then applies to the state as it is.
        boolean setsState = request.state().isPresent() || request.since().isPresent();
        return changed(owner, id, setsState, endpoint -> {
            DeliveryState state = endpoint.state();
            if (request.since().isPresent()) {
                state = state.replayingAfter(request.since().get());
            }
            if (enable.isPresent()) {
                if (enable.get() && !state.enabled()) {
                    state = state.enabledAgain();
                } else if (!enable.get() && state.enabled()) {
                    state = state.disabled(DISABLED_BY_OWNER);
                }
            }
            return endpoint.with(url.orElse(endpoint.url()), description.orElse(endpoint.description()),
                    ignored.orElse(endpoint.ignoreKeys()), state);
        });
    }

    /**
     * A new secret for the endpoint; the old one goes on signing every message, beside the new one, for the grace.
     *
     * @param grace from 0 (the old one stops at once) to {@link #MAX_GRACE}
     * @throws InvalidInputException naming {@code grace_seconds} for a grace out of that range
     */
    public WebhookEndpoint rotateSecret(ApplicationId owner, long id, Duration grace) {
        if (grace.isNegative() || grace.compareTo(MAX_GRACE) > 0) {
            throw new InvalidInputException(List.of(new Problem("grace_seconds",
                    "must be from 0 to " + MAX_GRACE.toSeconds() + " (7 days)")));
        }
        WebhookSecret secret = WebhookSecret.make();
        return changed(owner, id, false, endpoint -> endpoint.withSecret(secret, now().plus(grace)));
    }

    /** @throws WebhookNotFoundException when the owner has no such endpoint */
    public void remove(ApplicationId owner, long id) {
        if (!endpoints.remove(owner, id)) {
            throw new WebhookNotFoundException();
        }
    }

    /** Reads, changes and stores the endpoint, again when a delivery or another change stored it in between. */
    private WebhookEndpoint changed(ApplicationId owner, long id, boolean setsState,
            java.util.function.UnaryOperator<WebhookEndpoint> change) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            WebhookEndpoint read = get(owner, id);
            if (endpoints.update(change.apply(read), read.state(), setsState)) {
                return get(owner, id);
            }
        }
        throw new IllegalStateException("endpoint " + id + " kept changing while it was being modified");
    }

    private Optional<WebhookUrl> url(String text, List<Problem> problems) {
        Problem problem = WebhookUrl.problem("url", text, urlRules);
        if (problem != null) {
            problems.add(problem);
            return Optional.empty();
        }
        return Optional.of(WebhookUrl.of(text, urlRules));
    }

    private static String description(String text, List<Problem> problems) {
        if (text.length() > MAX_DESCRIPTION) {
            problems.add(new Problem("description", "must be at most " + MAX_DESCRIPTION + " characters"));
        } else if (text.chars().anyMatch(Character::isISOControl)) {
            problems.add(new Problem("description", "must not hold control characters"));
        }
        return text;
    }

    /** The keys, each of which must be one of the owner's (any state: an old key's writes may still be echoed). */
    private Set<Long> ignoredKeys(ApplicationId owner, List<Long> keys, List<Problem> problems) {
        if (keys.size() > MAX_IGNORED_KEYS) {
            problems.add(new Problem("ignore_keys", "must name at most " + MAX_IGNORED_KEYS + " keys"));
            return Set.of();
        }
        Set<Long> owned = applications.keys(owner).stream().map(ApiKey::id).collect(Collectors.toSet());
        List<Long> unknown = keys.stream().filter(key -> !owned.contains(key)).toList();
        if (!unknown.isEmpty()) {
            problems.add(new Problem("ignore_keys", "must name keys of this application; these are not: "
                    + unknown.stream().map(String::valueOf).collect(Collectors.joining(", "))));
        }
        return new LinkedHashSet<>(keys);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
