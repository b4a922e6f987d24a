package org.donordata.adapters.http;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.donordata.application.ApplicationService;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.IdempotencyKey;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.PageRequest;
import org.donordata.domain.Problem;

/**
 * What a request's path, query and headers say, parsed here at the edge: the core takes typed values. What is
 * malformed is refused naming the parameter (400); a path that names no donor is answered like a donor that does not
 * exist (404).
 */
final class RequestParameters {

    static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    /**
     * What may name a donor: digits, fewer than any api key has, so that echoing or logging it never shows a key
     * a client put in the wrong place.
     */
    static final Pattern DONOR_ID = Pattern.compile("[0-9]{1," + (ApplicationService.MIN_CONFIGURED_KEY_LENGTH - 1) + "}");
    private static final Pattern PLAIN_INTEGER = Pattern.compile("[0-9]{1,1000}");

    private RequestParameters() {
    }

    /** @throws DonorNotFoundException unless the path's {@code id} is a positive whole number */
    static long donorId(ServerRequest req) {
        String id = req.path().pathParameters().get("id");
        long value = DONOR_ID.matcher(id).matches() ? Long.parseLong(id) : 0;
        if (value < 1) {
            throw new DonorNotFoundException();
        }
        return value;
    }

    /**
     * The {@code limit} and {@code offset} query parameters, defaults when absent; a limit above the maximum, however
     * large, is clamped to it.
     *
     * @throws InvalidInputException naming each bad or repeated parameter
     */
    static PageRequest page(ServerRequest req) {
        List<Problem> problems = new ArrayList<>();
        BigInteger limit = plainInteger(req, "limit", problems).orElse(BigInteger.valueOf(PageRequest.DEFAULT_LIMIT));
        BigInteger offset = plainInteger(req, "offset", problems).orElse(BigInteger.ZERO);
        if (offset.bitLength() > 63) {
            problems.add(new Problem("offset", "must be at most " + Long.MAX_VALUE));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return PageRequest.of(limit.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue(), offset.longValue());
    }

    private static Optional<BigInteger> plainInteger(ServerRequest req, String name, List<Problem> problems) {
        List<String> values = req.query().all(name, List::of);
        if (values.size() > 1) {
            problems.add(new Problem(name, "must be given at most once"));
            return Optional.empty();
        }
        if (values.isEmpty()) {
            return Optional.empty();
        }
        String text = values.getFirst();
        if (PLAIN_INTEGER.matcher(text).matches()) {
            return Optional.of(new BigInteger(text));
        }
        problems.add(new Problem(name, "must be a whole number written in plain digits (such as 30), got "
                + Problem.quoted(text)));
        return Optional.empty();
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
