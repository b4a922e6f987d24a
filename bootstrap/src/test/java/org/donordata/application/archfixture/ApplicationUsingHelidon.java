package org.donordata.application.archfixture;

import io.helidon.http.Status;

/** Deliberately breaks the rules: a use case that knows HTTP statuses. */
public class ApplicationUsingHelidon {
    Status status = Status.OK_200;
}
