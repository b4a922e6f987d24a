package org.donordata.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A consent record as a client sends it (docs/api.md, "Consent"), checked: every problem of the body at once.
 *
 * @param givenAt when the donor gave or withdrew it
 * @param statement the words the donor was shown, or null
 */
public record ConsentRequest(ConsentPair pair, ConsentStatus status, Instant givenAt, String source,
        ConsentMethod method, String statement) {

    public static final int MAX_SOURCE = 200;
    public static final int MAX_STATEMENT = 2_000;
    /** How far past the write's instant a {@code given_at} may lie (clocks of other systems run ahead). */
    public static final Duration FUTURE_ALLOWED = Duration.ofMinutes(5);
    private static final Set<String> MEMBERS = Set.of("channel", "purpose", "status", "given_at", "source", "method",
            "statement");

    /**
     * Reads a client's body, as the JSON reader gives it ({@code String}, {@code null}, anything else the wrong type).
     *
     * @param now the write's instant: {@code given_at}'s default, and what it may not lie far beyond
     * @throws InvalidInputException naming every problem
     */
    public static ConsentRequest from(Map<String, ?> body, Instant now) {
        List<Problem> problems = new ArrayList<>();
        body.keySet().stream().filter(member -> !MEMBERS.contains(member)).forEach(member ->
                problems.add(new Problem(Texts.quoteForMessage(member), "is not a member of a consent record; they are "
                        + "channel, purpose, status, given_at, source, method and statement")));
        Optional<ConsentChannel> channel = required(body, "channel", problems).flatMap(text -> named(
                ConsentChannel.fromWire(text), "channel", "must be email, phone, sms or post", problems));
        Optional<String> purpose = required(body, "purpose", problems).flatMap(text -> named(
                Optional.of(text).filter(it -> ConsentPair.PURPOSE.matcher(it).matches()), "purpose",
                "must match ^[a-z][a-z0-9_]{0,39}$, such as newsletter", problems));
        Optional<ConsentStatus> status = required(body, "status", problems).flatMap(text -> named(
                ConsentStatus.fromWire(text), "status", "must be granted or withdrawn", problems));
        Optional<ConsentMethod> method = required(body, "method", problems).flatMap(text -> named(
                ConsentMethod.fromWire(text), "method", "must be online, phone, paper, in_person, import or other",
                problems));
        Optional<String> source = required(body, "source", problems).flatMap(text -> text(text, "source", MAX_SOURCE,
                problems)).flatMap(text -> named(Optional.of(text).filter(it -> !it.isEmpty()), "source",
                "must be 1 to " + MAX_SOURCE + " characters", problems));
        String statement = null;
        Object sentStatement = body.get("statement");
        if (sentStatement instanceof String text) {
            statement = text(text, "statement", MAX_STATEMENT, problems).filter(it -> !it.isEmpty()).orElse(null);
        } else if (sentStatement != null) {
            problems.add(new Problem("statement", "must be a string or null"));
        }
        Instant givenAt = now;
        // null, as a client's serializer writes a member it was not given, counts as not sent: now.
        if (body.get("given_at") != null) {
            givenAt = body.get("given_at") instanceof String text ? givenAt(text, now, problems).orElse(null)
                    : wrongType("given_at", Rfc3339.EXPECTED, problems);
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return new ConsentRequest(new ConsentPair(channel.orElseThrow(), purpose.orElseThrow()), status.orElseThrow(),
                givenAt, source.orElseThrow(), method.orElseThrow(), statement);
    }

    /** A record an import writes for a state that differs from the file's (docs/api.md, "Moving data in and out"). */
    public static ConsentRequest imported(ConsentPair pair, ConsentStatus status, String file, Instant now) {
        String source = "import of " + file;
        if (source.codePointCount(0, source.length()) > MAX_SOURCE) {
            source = source.substring(0, source.offsetByCodePoints(0, MAX_SOURCE));
        }
        return new ConsentRequest(pair, status, now, source, ConsentMethod.IMPORT, null);
    }

    private static Optional<Instant> givenAt(String text, Instant now, List<Problem> problems) {
        Optional<OffsetDateTime> parsed = Rfc3339.parse(text);
        if (parsed.isEmpty()) {
            problems.add(new Problem("given_at", Rfc3339.EXPECTED + ", got " + Texts.quoteForMessage(text)));
            return Optional.empty();
        }
        int year = parsed.get().getYear();
        Instant instant = parsed.get().toInstant();
        if (year < 1900 || year > 9999 || instant.atOffset(java.time.ZoneOffset.UTC).getYear() < 1900) {
            problems.add(new Problem("given_at", "must lie in the years 1900 to 9999"));
            return Optional.empty();
        }
        if (instant.isAfter(now.plus(FUTURE_ALLOWED))) {
            problems.add(new Problem("given_at", "must not lie more than 5 minutes in the future; it is "
                    + Texts.quoteForMessage(text) + " and now is " + now));
            return Optional.empty();
        }
        // Kept to the microsecond, as every instant (docs/api.md, "Consent"): a store that kept nanoseconds another drops
        // would order two records differently, and the state with them.
        return Optional.of(instant.truncatedTo(ChronoUnit.MICROS));
    }

    private static Optional<String> required(Map<String, ?> body, String member, List<Problem> problems) {
        Object value = body.get(member);
        if (value == null) {
            problems.add(new Problem(member, "is required"));
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            problems.add(new Problem(member, "must be a string"));
            return Optional.empty();
        }
        return Optional.of(text);
    }

    private static <T> Optional<T> named(Optional<T> value, String member, String rule, List<Problem> problems) {
        if (value.isEmpty()) {
            problems.add(new Problem(member, rule));
        }
        return value;
    }

    /** Trimmed client text within its limit, or empty with the problem. */
    private static Optional<String> text(String text, String member, int max, List<Problem> problems) {
        String problem = Texts.problem(text, max);
        if (problem != null) {
            problems.add(new Problem(member, problem));
            return Optional.empty();
        }
        return Optional.of(Texts.trim(text));
    }

    private static <T> T wrongType(String member, String rule, List<Problem> problems) {
        problems.add(new Problem(member, rule));
        return null;
    }
}
