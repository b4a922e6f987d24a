package org.donordata.application;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.donordata.domain.ChangePosition;
import org.donordata.domain.InvalidInputException;
import org.donordata.domain.Problem;

/**
 * The sync feed's tokens (docs/api.md, "The change feed"): a position in an application's changes, opaque and
 * tamper-evident. The position (change number and donor id, 16 bytes) is encrypted as one AES block, so a token reveals
 * nothing (not the installation's change count, which on PostgreSQL follows its transaction ids), and the calling
 * application's id and the block are signed with HMAC-SHA-256, so a token the service did not issue, or issued to
 * another application, is refused. Both keys come from the installation's secret, which its database keeps: every node
 * gives out and accepts the same tokens, across restarts and database copies. Deterministic: one position is always one
 * token. The feed hands them out and takes them back; a webhook message carries the one just after its change.
 */
public final class ChangeTokens {

    private static final byte VERSION = 2;
    private static final int POSITION_BYTES = 16;
    private static final int TAG_BYTES = 16;
    private static final int TOKEN_BYTES = 1 + POSITION_BYTES + TAG_BYTES;
    private static final int TOKEN_LENGTH = (TOKEN_BYTES * 4 + 2) / 3;

    private final SecretKeySpec encryption;
    private final SecretKeySpec signing;

    /** @param secret the installation's secret, at least 32 random bytes */
    public ChangeTokens(byte[] secret) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("a change token secret has at least 32 bytes");
        }
        this.encryption = new SecretKeySpec(Arrays.copyOf(derive(secret, "change-token encryption"), 16), "AES");
        this.signing = new SecretKeySpec(derive(secret, "change-token signature"), "HmacSHA256");
    }

    public String encode(ApplicationId owner, ChangePosition position) {
        byte[] token = new byte[TOKEN_BYTES];
        token[0] = VERSION;
        byte[] block = ByteBuffer.allocate(POSITION_BYTES).putLong(position.change()).putLong(position.donorId()).array();
        System.arraycopy(aes(Cipher.ENCRYPT_MODE, block), 0, token, 1, POSITION_BYTES);
        System.arraycopy(tag(owner, token), 0, token, 1 + POSITION_BYTES, TAG_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }

    /** @throws InvalidInputException naming {@code since} for a token this service did not give this application */
    public ChangePosition decode(ApplicationId owner, String text) {
        byte[] token;
        try {
            token = text.length() == TOKEN_LENGTH ? Base64.getUrlDecoder().decode(text) : null;
        } catch (IllegalArgumentException notBase64) {
            token = null;
        }
        // Only the one spelling this service writes: base64 decoders pass over stray trailing bits.
        if (token == null || token.length != TOKEN_BYTES || token[0] != VERSION
                || !text.equals(Base64.getUrlEncoder().withoutPadding().encodeToString(token))) {
            throw refused();
        }
        byte[] tag = Arrays.copyOfRange(token, 1 + POSITION_BYTES, TOKEN_BYTES);
        if (!MessageDigest.isEqual(tag, tag(owner, token))) {
            throw refused();
        }
        ByteBuffer position = ByteBuffer.wrap(aes(Cipher.DECRYPT_MODE, Arrays.copyOfRange(token, 1, 1 + POSITION_BYTES)));
        return new ChangePosition(position.getLong(), position.getLong());
    }

    // One message for every refusal: which check failed is no business of whoever holds a bad token.
    private static InvalidInputException refused() {
        return new InvalidInputException(List.of(new Problem("since", "is not a token this service gave this application;"
                + " start without since, or use the next link of an earlier answer")));
    }

    /** The signature of the owner's id and the token's version and encrypted position. */
    private byte[] tag(ApplicationId owner, byte[] token) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(signing);
            mac.update(ByteBuffer.allocate(Long.BYTES).putLong(owner.value()).array());
            mac.update(token, 0, 1 + POSITION_BYTES);
            return Arrays.copyOf(mac.doFinal(), TAG_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }

    // One block with a key used for nothing else: a pseudorandom permutation of the 16-byte position, so ECB's
    // weakness (equal blocks look equal) shows only that two tokens name one position, which they do anyway.
    private byte[] aes(int mode, byte[] block) {
        try {
            Cipher cipher = Cipher.getInstance("AES/ECB/NoPadding");
            cipher.init(mode, encryption);
            return cipher.doFinal(block);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has AES", e);
        }
    }

    private static byte[] derive(byte[] secret, String purpose) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(purpose.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }
}
