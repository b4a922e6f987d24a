package org.donordata.adapters.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.donordata.application.ApplicationId;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;

/**
 * The sync feed's tokens (contract section 9): a position in an application's changes, opaque to clients (base64url)
 * and bound to the application, so another application's token is refused rather than read. A token stays valid
 * across restarts and database copies: the positions it holds are stored with the donors.
 */
final class ChangeTokens {

    private static final String VERSION = "c1";
    private static final Pattern FORM = Pattern.compile(VERSION + "\\.([0-9]{1,18})\\.([0-9]{1,19})\\.([0-9]{1,19})");

    private ChangeTokens() {
    }

    static String encode(ApplicationId owner, ChangePosition position) {
        String plain = VERSION + "." + owner.value() + "." + position.change() + "." + position.donorId();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /** @throws InvalidInputException naming {@code since} for a malformed token, or another application's */
    static ChangePosition decode(ApplicationId owner, String token) {
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException notBase64) {
            throw refused("is not a token this service gave out; start without since, or use a next link");
        }
        Matcher parts = FORM.matcher(plain);
        // Only the one spelling this service writes: base64 decoders pass over stray trailing bits.
        if (!parts.matches() || !token.equals(Base64.getUrlEncoder().withoutPadding()
                .encodeToString(plain.getBytes(StandardCharsets.US_ASCII)))) {
            throw refused("is not a token this service gave out; start without since, or use a next link");
        }
        try {
            if (Long.parseLong(parts.group(1)) != owner.value()) {
                throw refused("belongs to another application");
            }
            return new ChangePosition(Long.parseLong(parts.group(2)), Long.parseLong(parts.group(3)));
        } catch (NumberFormatException tooLarge) {
            throw refused("is not a token this service gave out; start without since, or use a next link");
        }
    }

    private static InvalidInputException refused(String why) {
        return new InvalidInputException(List.of(new Problem("since", why)));
    }
}
