package org.donordata.domain;

import java.util.Optional;

/** The ways a donor may be contacted that consent is recorded for (docs/api.md, "Consent"). */
public enum ConsentChannel {
    EMAIL, PHONE, SMS, POST;

    public String wireName() {
        return WireNames.of(this);
    }

    public static Optional<ConsentChannel> fromWire(String name) {
        return WireNames.find(ConsentChannel.class, name);
    }
}
