package org.donordata.domain;

import java.util.Optional;

/** The ways a donor may be contacted that consent is recorded for (docs/api.md, "Consent"). */
public enum ConsentChannel {
    EMAIL, PHONE, SMS, POST;

    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }

    public static Optional<ConsentChannel> fromWire(String name) {
        for (ConsentChannel channel : values()) {
            if (channel.wireName.equals(name)) {
                return Optional.of(channel);
            }
        }
        return Optional.empty();
    }
}
