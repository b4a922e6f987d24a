package org.donordata.application;

import java.time.Instant;

/** A client application: the owner of a set of donors, which it reaches with keys of its own ({@link ApiKey}). */
public record Application(ApplicationId id, String name, Instant createdAt) {
}
