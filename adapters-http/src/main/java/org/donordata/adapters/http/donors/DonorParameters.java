package org.donordata.adapters.http.donors;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import jakarta.json.JsonNumber;
import org.donordata.adapters.http.requests.PathIds;
import org.donordata.domain.DonorField;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.CustomField;
import org.donordata.domain.Rfc3339;
import org.donordata.domain.Texts;
import org.donordata.domain.CustomFilter;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorType;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;
import org.donordata.domain.SearchQuery;

/**
 * What a request to the donors' paths says in its path, query and headers, parsed here at the edge: the core takes
 * typed values. What is malformed is refused naming the parameter (400); a path that names no donor is answered like a
 * donor that does not exist (404).
 */
public final class DonorParameters {

    static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    private static final Pattern PLAIN_INTEGER = Pattern.compile("[0-9]{1,1000}");

    private DonorParameters() {
    }

    /** @throws DonorNotFoundException unless the path's {@code id} is a positive whole number */
    static long donorId(ServerRequest req) {
        return PathIds.pathId(req).orElseThrow(DonorNotFoundException::new);
    }

    /**
     * The duplicate a merge's body names (docs/api.md, "Duplicates and merge"): a JSON object with one member,
     * {@code duplicate}, a donor id.
     *
     * @throws InvalidInputException naming {@code duplicate} when it is missing or no donor id, and every other member
     */
    static long duplicateToMerge(Map<String, Object> body) {
        List<Problem> problems = new ArrayList<>();
        Object duplicate = body.get(DUPLICATE);
        long id = 0;
        if (duplicate == null) {
            problems.add(new Problem(DUPLICATE, body.containsKey(DUPLICATE) ? "must be a donor id, not null"
                    : "is required: the id of the donor to merge into this one"));
        } else if (duplicate instanceof JsonNumber number && isWholeDonorId(number.bigDecimalValue())) {
            id = number.bigDecimalValue().longValueExact();
        } else {
            problems.add(new Problem(DUPLICATE, "must be a donor id (a positive whole number)"));
        }
        body.keySet().stream().filter(name -> !name.equals(DUPLICATE)).forEach(name -> problems.add(
                new Problem(Problem.quoted(name), "is not a member of a merge; it takes only \"duplicate\"")));
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return id;
    }

    private static final String DUPLICATE = "duplicate";

    /**
     * A positive whole number up to the largest id, however written ({@code 3}, {@code 3.0}, {@code 3e0}: one number
     * to JSON, and an integer to JSON Schema). Compared before anything is scaled, so that {@code 1e999999999} costs
     * nothing.
     */
    private static boolean isWholeDonorId(BigDecimal value) {
        return value.signum() > 0 && value.compareTo(LARGEST_ID) <= 0 && value.stripTrailingZeros().scale() <= 0;
    }

    private static final BigDecimal LARGEST_ID = BigDecimal.valueOf(Long.MAX_VALUE);

    /**
     * What a list of donors was asked for, and its filters as its links repeat them ("" for none): {@code searched}, the
     * q, then {@code filters}, the others, between which a search's links put their {@code after}.
     *
     * @param after the donor a search's page starts past (docs/api.md, "Searching (q)"), 0 when not given
     */
    record ListQuery(PageRequest page, DonorFilter filter, long after, String searched, String filters) {

        /** Every filter as a plain list's links repeat them. */
        String allFilters() {
            return searched + filters;
        }
    }

    private static final String AFTER = "after";
    private static final String CONSENT = DonorField.CONSENT.key();

    /**
     * The parameters a list of donors takes, in the order its links repeat them (docs/api.md, "Paging" and "Finding donors
     * (filters)"; a search's {@code after} right after its q, "Searching (q)", its "Paging a search").
     */
    private static final List<String> LIST_PARAMETERS = List.of("limit", "offset", "q", AFTER, DonorField.EMAIL.key(),
            DonorField.EXTERNAL_ID.key(), DonorField.TYPE.key(), "created_since", "updated_since", CONSENT);
    private static final List<String> PAGE_PARAMETERS = List.of("limit", "offset");
    private static final List<String> CHANGES_PARAMETERS = List.of("limit", "since");

    /**
     * A list's paging and filters. A limit above the maximum, however large, is clamped to it.
     *
     * @throws InvalidInputException naming each unknown, repeated or bad parameter
     */
    static ListQuery list(ServerRequest req, Supplier<List<CustomField>> fields) {
        List<Problem> problems = new ArrayList<>();
        refuseUnknown(req, LIST_PARAMETERS, problems);
        Map<String, String> customGiven = new LinkedHashMap<>();
        for (String name : namesInOrder(req.query().rawValue())) {
            if (CustomFilter.names(name) && !customGiven.containsKey(name)) {
                single(req, name, problems).ifPresent(value -> customGiven.put(name, value));
            }
        }
        List<CustomFilter> custom = customGiven.isEmpty() ? List.of()
                : CustomFilter.parse(customGiven, fields.get(), problems);
        PageRequest page = pageOf(req, problems);
        Optional<SearchQuery> search = single(req, "q", problems).flatMap(q -> {
            try {
                return Optional.of(SearchQuery.parse(q));
            } catch (InvalidInputException refused) {
                problems.addAll(refused.problems());
                return Optional.empty();
            }
        });
        Optional<String> email = text(req, DonorField.EMAIL, problems);
        Optional<String> externalId = text(req, DonorField.EXTERNAL_ID, problems);
        Optional<DonorType> type = single(req, DonorField.TYPE.key(), problems).flatMap(text -> {
            Optional<DonorType> known = DonorType.fromKey(text);
            if (known.isEmpty()) {
                problems.add(new Problem(DonorField.TYPE.key(), "must be 'individual' or 'organization', got "
                        + Problem.quoted(text)));
            }
            return known;
        });
        Optional<Instant> createdSince = instant(req, "created_since", problems);
        Optional<Instant> updatedSince = instant(req, "updated_since", problems);
        Optional<ConsentPair> consent = single(req, CONSENT, problems).flatMap(text -> {
            Optional<ConsentPair> pair = ConsentPair.parse(text);
            if (pair.isEmpty()) {
                problems.add(new Problem(CONSENT, ConsentPair.expected() + ", got " + Problem.quoted(text)));
            }
            return pair;
        });
        long after = after(req, problems);
        if (!problems.isEmpty() || page == null) {
            throw new InvalidInputException(problems);
        }
        StringBuilder filters = new StringBuilder();
        // A search's links carry their own after (the page's continuation), not the one asked for.
        for (String name : LIST_PARAMETERS.subList(4, LIST_PARAMETERS.size())) {
            single(req, name, problems).ifPresent(value -> filters.append('&').append(name).append('=')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        }
        // The custom filters after every other, in the order given.
        customGiven.forEach((name, value) -> filters.append('&').append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        String searched = single(req, "q", problems)
                .map(q -> "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)).orElse("");
        return new ListQuery(page, new DonorFilter(search, email, externalId, type, createdSince, updatedSince,
                custom, consent), after, searched, filters.toString());
    }

    /**
     * A search's or a mailing list's {@code after} (docs/api.md, "Searching (q)"; "Consent"): a donor id, which only a
     * list with q or consent takes; 0 when not given.
     * A q refused for its own reasons does not also refuse the after.
     */
    private static long after(ServerRequest req, List<Problem> problems) {
        Optional<String> given = single(req, AFTER, problems);
        if (given.isEmpty()) {
            return 0;
        }
        if (req.query().all("q", List::of).isEmpty() && req.query().all(CONSENT, List::of).isEmpty()) {
            problems.add(new Problem(AFTER, "is taken only with q or consent: a search's or a mailing list's next link"
                    + " gives it"));
            return 0;
        }
        String text = given.get();
        if (!PathIds.isDonorId(text) || text.charAt(0) == '0') {
            problems.add(new Problem(AFTER, "must be a donor id (a positive whole number in plain digits), got "
                    + Problem.quoted(text)));
            return 0;
        }
        return Long.parseLong(text);
    }

    /**
     * The paging of a list that takes no filters (a donor's history, the custom fields).
     *
     * @throws InvalidInputException naming each unknown, repeated or bad parameter
     */
    public static PageRequest page(ServerRequest req) {
        List<Problem> problems = new ArrayList<>();
        refuseUnknown(req, PAGE_PARAMETERS, problems);
        PageRequest page = pageOf(req, problems);
        if (!problems.isEmpty() || page == null) {
            throw new InvalidInputException(problems);
        }
        return page;
    }

    /** What a read of the change feed asked for: from where, and how many. */
    record ChangesQuery(Optional<String> since, int limit) {
    }

    /** @throws InvalidInputException naming each unknown, repeated or bad parameter */
    static ChangesQuery changes(ServerRequest req) {
        List<Problem> problems = new ArrayList<>();
        refuseUnknown(req, CHANGES_PARAMETERS, problems);
        Optional<BigInteger> limit = plainInteger(req, "limit", problems);
        Optional<String> since = single(req, "since", problems);
        if (limit.isPresent() && limit.get().signum() == 0) {
            problems.add(new Problem("limit", "must be at least 1"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return new ChangesQuery(since, limit.map(it -> it.min(BigInteger.valueOf(PageRequest.MAX_LIMIT)).intValue())
                .orElse(PageRequest.DEFAULT_LIMIT));
    }

    private static PageRequest pageOf(ServerRequest req, List<Problem> problems) {
        int before = problems.size();
        BigInteger limit = plainInteger(req, "limit", problems).orElse(BigInteger.valueOf(PageRequest.DEFAULT_LIMIT));
        BigInteger offset = plainInteger(req, "offset", problems).orElse(BigInteger.ZERO);
        if (offset.bitLength() > 63) {
            problems.add(new Problem("offset", "must be at most " + Long.MAX_VALUE));
        }
        if (problems.size() > before) {
            return null;
        }
        try {
            return PageRequest.of(limit.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue(), offset.longValue());
        } catch (InvalidInputException outOfRange) {
            problems.addAll(outOfRange.problems());
            return null;
        }
    }

    /**
     * Refuses what no parameter may be: an unknown name, a name without a value ({@code ?email} would otherwise match
     * every donor), and a value with a control character (U+0000 cannot even be stored in PostgreSQL).
     */
    private static void refuseUnknown(ServerRequest req, List<String> known, List<Problem> problems) {
        Set<String> valueless = valueless(req.query().rawValue());
        for (String name : req.query().names()) {
            // A list's custom filters are checked against the application's fields (CustomFilter).
            boolean custom = known == LIST_PARAMETERS && CustomFilter.names(name);
            if (!known.contains(name) && !custom) {
                problems.add(new Problem(Problem.quoted(name), "is not a parameter here; it takes "
                        + String.join(", ", known)));
                continue;
            }
            List<String> values = req.query().all(name, List::of);
            if (values.isEmpty() || valueless.contains(name)) {
                problems.add(new Problem(name, "is given without a value; write " + name + "=VALUE"));
            } else if (values.stream().anyMatch(DonorParameters::hasControlCharacter)) {
                problems.add(new Problem(name, "must not contain control characters"));
            }
        }
    }

    /** A parameter as the raw query writes it: its decoded name, and whether an {@code =} follows the name. */
    private record RawParameter(String name, boolean valued) {
    }

    /** The raw query's parameters in the order given, repeats included. */
    private static List<RawParameter> rawParameters(String rawQuery) {
        List<RawParameter> parameters = new ArrayList<>();
        for (String piece : rawQuery.split("&")) {
            if (piece.isEmpty()) {
                continue;
            }
            int equals = piece.indexOf('=');
            String name = equals < 0 ? piece : piece.substring(0, equals);
            try {
                name = URLDecoder.decode(name, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException malformed) {
                // Kept as written: refused by name as an unknown parameter.
            }
            parameters.add(new RawParameter(name, equals >= 0));
        }
        return parameters;
    }

    /** The parameters' names in the order the raw query gives them, each once. */
    private static List<String> namesInOrder(String rawQuery) {
        return rawParameters(rawQuery).stream().map(RawParameter::name).distinct().toList();
    }

    // Helidon lists "?email&email=a" as one value, "a": the name given alone is found in the raw query.
    private static Set<String> valueless(String rawQuery) {
        return rawParameters(rawQuery).stream().filter(parameter -> !parameter.valued()).map(RawParameter::name)
                .collect(Collectors.toSet());
    }

    /** Any C0 or C1 control character, or DEL: no parameter of this API may hold one. */
    static boolean hasControlCharacter(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** A text filter: not empty, no longer than the field it matches may be. */
    private static Optional<String> text(ServerRequest req, DonorField field, List<Problem> problems) {
        Optional<String> value = single(req, field.key(), problems);
        if (value.isPresent() && (value.get().isBlank() || Texts.length(value.get()) > field.maxLength())) {
            problems.add(new Problem(field.key(), "must be 1 to " + field.maxLength() + " characters"));
            return Optional.empty();
        }
        return value.map(Texts::trim);
    }

    /**
     * An RFC 3339 timestamp with an offset. A '+' in a query string stands for a space unless it is encoded, and a
     * client that forgot to encode the offset's '+' gets what it meant. Only RFC 3339's form: Java's ISO parser also
     * takes expanded years ({@code +999999999-01-01}), which no client means.
     */
    private static Optional<Instant> instant(ServerRequest req, String name, List<Problem> problems) {
        return single(req, name, problems).flatMap(text -> {
            String timestamp = text.replace(' ', '+');
            try {
                return Optional.of(Rfc3339.parse(timestamp)
                        .orElseThrow(() -> new DateTimeParseException("not RFC 3339", timestamp, 0)).toInstant());
            } catch (DateTimeParseException notATimestamp) {
                problems.add(new Problem(name, Rfc3339.EXPECTED + ", got " + Problem.quoted(text)));
                return Optional.empty();
            }
        });
    }

    // A problem refuseUnknown found with the parameter already (no value, a control character) is named once.
    private static Optional<String> single(ServerRequest req, String name, List<Problem> problems) {
        List<String> values = req.query().all(name, List::of);
        if (values.isEmpty() || problems.stream().anyMatch(problem -> problem.subject().equals(name))) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            if (problems.stream().noneMatch(problem -> problem.subject().equals(name))) {
                problems.add(new Problem(name, "must be given at most once"));
            }
            return Optional.empty();
        }
        return values.stream().findFirst();
    }

    private static Optional<BigInteger> plainInteger(ServerRequest req, String name, List<Problem> problems) {
        return single(req, name, problems).flatMap(text -> {
            if (PLAIN_INTEGER.matcher(text).matches()) {
                return Optional.of(new BigInteger(text));
            }
            problems.add(new Problem(name, "must be a whole number written in plain digits (such as 30), got "
                    + Problem.quoted(text)));
            return Optional.empty();
        });
    }

    /**
     * The external id of {@code /api/v1/donors/external/{external_id}}, percent-decoded once, as UTF-8 ('+' is itself in
     * a path). Read from the path as sent: Helidon's path parameters are decoded already, and decoding them again would
     * turn {@code %252F} into a {@code /} and refuse {@code M%C3%BCller}. The transport's PathSpelling has checked that
     * the path holds it as its one last segment.
     *
     * @throws InvalidInputException naming external_id when it is no valid percent-encoded UTF-8, or holds a control
     *         character
     */
    static String externalId(ServerRequest req) {
        String rawPath = req.prologue().uriPath().rawPath();
        String raw = rawPath.substring(rawPath.lastIndexOf('/') + 1);
        String subject = DonorField.EXTERNAL_ID.key();
        String text;
        try {
            byte[] bytes = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.ISO_8859_1)
                    .getBytes(StandardCharsets.ISO_8859_1);
            text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException malformed) {
            throw new InvalidInputException(List.of(new Problem(subject, "in the path is not valid percent-encoded UTF-8")));
        }
        if (hasControlCharacter(text)) {
            throw new InvalidInputException(List.of(new Problem(subject, "in the path must not contain control characters")));
        }
        return text;
    }

    /** @throws InvalidInputException naming the header when it is repeated or holds no key */
    static Optional<IdempotencyKey> idempotencyKey(ServerRequest req) {
        List<String> values = req.headers().all(IDEMPOTENCY_KEY, List::of);
        if (values.size() > 1) {
            throw refused(IDEMPOTENCY_KEY, "must be given at most once");
        }
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (!IdempotencyKey.isWellFormed(values.getFirst())) {
            throw refused(IDEMPOTENCY_KEY, "must be 1 to " + IdempotencyKey.MAX_LENGTH + " printable ASCII characters"
                    + " (letters, digits, punctuation and spaces), such as a UUID");
        }
        return Optional.of(new IdempotencyKey(values.getFirst()));
    }

    private static InvalidInputException refused(HeaderName header, String description) {
        return new InvalidInputException(List.of(new Problem(header.defaultCase(), description)));
    }
}
