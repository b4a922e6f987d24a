package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.InvalidInputException;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md, "The change feed": the feed's tokens are opaque, bound to their application, and refused when not ours.
 */
class ChangeTokensTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final ChangePosition POSITION = new ChangePosition(123_456_789L, 4_711L);
    private static final byte[] SECRET = "a fixed secret of thirty-two bytes or more".getBytes(StandardCharsets.US_ASCII);
    private final ChangeTokens tokens = new ChangeTokens(SECRET);

    // A token given before an upgrade still reads after it: this one was written by the build of 8a62346.
    @Test
    void aTokenKeepsItsSpellingAcrossVersions() {
        ChangePosition position = new ChangePosition(123_456_789L, Long.MAX_VALUE - 4711L);

        assertEquals("AilbK0XTAsQc_Fbo3iahVfZuJPlSRpveYYgDhxSe25jC", tokens.encode(OWNER, position));
        assertEquals(position, tokens.decode(OWNER, "AilbK0XTAsQc_Fbo3iahVfZuJPlSRpveYYgDhxSe25jC"));
    }

    @Test
    void aTokenGivesBackItsPositionToItsOwnerOnAnyNodeWithTheSameSecret() {
        String token = tokens.encode(OWNER, POSITION);

        assertEquals(POSITION, tokens.decode(OWNER, token));
        assertEquals(POSITION, new ChangeTokens(SECRET.clone()).decode(OWNER, token));
        assertEquals(token, tokens.encode(OWNER, POSITION), "one position, one token");
        assertEquals(ChangePosition.START, tokens.decode(OWNER, tokens.encode(OWNER, ChangePosition.START)));
    }

    @Test
    void aTokenRevealsNeitherTheChangeNumberNorTheDonor() {
        String token = tokens.encode(OWNER, POSITION);
        String decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.ISO_8859_1);

        for (String revealing : new String[] {"123456789", "4711", Long.toHexString(123_456_789L)}) {
            assertFalse(token.contains(revealing) || decoded.contains(revealing), revealing);
        }
        assertNotEquals(tokens.encode(OWNER, new ChangePosition(123_456_790L, 4_711L)).substring(1, 23),
                token.substring(1, 23), "the next position does not look alike");
    }

    @Test
    void everyAlteredTokenIsRefused() {
        byte[] token = Base64.getUrlDecoder().decode(tokens.encode(OWNER, POSITION));
        for (int i = 0; i < token.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] altered = token.clone();
                altered[i] ^= (byte) (1 << bit);
                String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(altered);
                assertThrows(InvalidInputException.class, () -> tokens.decode(OWNER, forged), "byte " + i + " bit " + bit);
            }
        }
    }

    @Test
    void anotherApplicationsTokenAnotherInstallationsAndTheOldPlainFormAreRefused() {
        String token = tokens.encode(OWNER, POSITION);
        byte[] otherSecret = "another installation's secret, 32 bytes at least".getBytes(StandardCharsets.US_ASCII);

        assertThrows(InvalidInputException.class, () -> tokens.decode(new ApplicationId(8), token));
        assertThrows(InvalidInputException.class, () -> new ChangeTokens(otherSecret).decode(OWNER, token));
        String plain = Base64.getUrlEncoder().withoutPadding().encodeToString("c1.7.1.1".getBytes(StandardCharsets.US_ASCII));
        assertThrows(InvalidInputException.class, () -> tokens.decode(OWNER, plain));
        assertThrows(InvalidInputException.class, () -> tokens.decode(OWNER, token + "A"));
        assertThrows(InvalidInputException.class, () -> tokens.decode(OWNER, ""));
        assertThrows(InvalidInputException.class, () -> tokens.decode(OWNER, token.replace('A', '*')));
    }
}
