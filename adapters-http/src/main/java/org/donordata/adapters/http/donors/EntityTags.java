package org.donordata.adapters.http.donors;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.donordata.domain.ExpectedVersion;

/**
 * A donor's version as an HTTP entity tag, and the versions a request's {@code If-Match} and {@code If-None-Match}
 * accept (RFC 9110 13.1.1 and 13.1.2).
 */
final class EntityTags {

    private static final Pattern ENTITY_TAG = Pattern.compile("(W/)?\"([^\"]*)\"");
    private static final Pattern VERSION = Pattern.compile("[1-9][0-9]{0,17}");

    private EntityTags() {
    }

    /** A strong tag: two representations with the same version are identical byte for byte. */
    static String of(long version) {
        return "\"" + version + "\"";
    }

    /**
     * No {@code If-Match}, or {@code *}: any version. Otherwise the versions of its strong tags; weak tags never
     * match under the strong comparison If-Match requires, and a tag that is not one of ours matches nothing, so a
     * header naming no usable version makes the modify fail (412) rather than succeed unconditionally.
     */
    static ExpectedVersion expected(ServerRequest req) {
        ExpectedVersion ifMatch = ifMatch(req.headers().all(HeaderNames.IF_MATCH, List::of));
        List<String> ifNoneMatch = req.headers().all(HeaderNames.IF_NONE_MATCH, List::of);
        if (ifNoneMatch.isEmpty()) {
            return ifMatch;
        }
        // If-None-Match: * is met only where nothing exists; with tags, by any version but theirs (weak comparison).
        ExpectedVersion noneOf = ifNoneMatch.stream().anyMatch(value -> value.strip().equals("*"))
                ? ExpectedVersion.NONE : ExpectedVersion.noneOf(versions(ifNoneMatch, true));
        return ifMatch == ExpectedVersion.ANY ? noneOf : ifMatch.and(noneOf);
    }

    private static ExpectedVersion ifMatch(List<String> headers) {
        if (headers.isEmpty() || headers.stream().anyMatch(value -> value.strip().equals("*"))) {
            return ExpectedVersion.ANY;
        }
        return ExpectedVersion.oneOf(versions(headers, false));
    }

    /** The versions the headers' tags name; weak tags only when {@code weakToo} (a weak comparison). */
    private static Set<Long> versions(List<String> headers, boolean weakToo) {
        Set<Long> versions = new HashSet<>();
        for (String header : headers) {
            Matcher tag = ENTITY_TAG.matcher(header);
            while (tag.find()) {
                if ((weakToo || tag.group(1) == null) && VERSION.matcher(tag.group(2)).matches()) {
                    versions.add(Long.parseLong(tag.group(2)));
                }
            }
        }
        return versions;
    }
}
