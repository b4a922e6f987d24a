package org.donordata.application;

/** What a key presented with a request turned out to be (ApplicationService.authenticate). */
public sealed interface Authentication {

    /** A working key: the request acts as this caller. */
    record Valid(Caller caller) implements Authentication {
    }

    /** A key that was valid until its expiry passed: the caller is told so, to renew it. */
    record Expired() implements Authentication {
    }

    /** No key, an unknown, malformed, revoked or retired one: the caller learns nothing more. */
    record Refused() implements Authentication {
    }
}
