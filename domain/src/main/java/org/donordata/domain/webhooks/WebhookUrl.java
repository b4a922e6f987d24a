package org.donordata.domain.webhooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

import org.donordata.domain.Problem;

/**
 * An endpoint's address (docs/api.md, "Webhooks"): absolute {@code https://} (or {@code http://} where the operator
 * allows it), at most {@value #MAX_LENGTH} characters, with a host and without user information, a port (if written)
 * from 1 to 65535; a host written as an IP address must be one {@link WebhookAddresses} permits. A host name is not
 * looked up here: the address it resolves to is checked at every delivery.
 */
public record WebhookUrl(URI uri) {

    public static final int MAX_LENGTH = 2000;

    /** What the rules take from the operator's settings. */
    public record Rules(boolean allowHttp, WebhookAddresses addresses) {

        public static final Rules STRICT = new Rules(false, WebhookAddresses.STRICT);
    }

    /**
     * What is wrong with a URL a client gave, or null when nothing is.
     *
     * @param subject the field it came in, as a problem names it
     */
    public static Problem problem(String subject, String text, Rules rules) {
        if (text == null || text.isBlank()) {
            return new Problem(subject, "is required");
        }
        if (text.length() > MAX_LENGTH) {
            return new Problem(subject, "must be at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            // Spaces and control characters are among what makes no URI.
            return new Problem(subject, "must be an absolute URL, not " + Problem.quoted(text));
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(rules.allowHttp() && scheme.equals("http"))) {
            return new Problem(subject, rules.allowHttp() ? "must begin with https:// or http://"
                    : "must begin with https:// (plain http:// is allowed by DONORS_WEBHOOKS_ALLOW_HTTP=true)");
        }
        if (uri.getRawUserInfo() != null || uri.getRawAuthority() != null && uri.getRawAuthority().contains("@")) {
            return new Problem(subject, "must not hold user information (user:password@)");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return new Problem(subject, "must name a host");
        }
        // A fragment is never sent to a server: a URL with one is a mistake worth hearing of.
        if (uri.getRawFragment() != null) {
            return new Problem(subject, "must not have a fragment (#...)");
        }
        if (!WebhookAddresses.permitsPort(uri.getPort())) {
            return new Problem(subject, "must have a port from 1 to 65535, not " + uri.getPort());
        }
        Optional<IpAddress> literal = IpAddress.parse(uri.getHost());
        if (literal.isPresent() && !rules.addresses().permits(literal.get())) {
            return new Problem(subject, "is a refused address (not globally reachable: loopback, private, link-local,"
                    + " shared, reserved, documentation, benchmarking, multicast, broadcast or unspecified; see"
                    + " docs/security.md, Webhooks); DONORS_WEBHOOKS_ALLOW_NETWORKS can allow a range");
        }
        return null;
    }

    /**
     * @throws IllegalArgumentException when the URL breaks a rule ({@link #problem} says which)
     */
    public static WebhookUrl of(String text, Rules rules) {
        Problem problem = problem("url", text, rules);
        if (problem != null) {
            throw new IllegalArgumentException(problem.toString());
        }
        return new WebhookUrl(URI.create(text));
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
