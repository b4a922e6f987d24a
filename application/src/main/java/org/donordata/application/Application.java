package org.donordata.application;

import java.time.Instant;

/** A client application: the owner of a set of donors and of (at most) one active api key. */
public record Application(ApplicationId id, String name, Instant createdAt, boolean keyActive) {
}
