package org.donordata.bootstrap;

/** The service could not start for a reason an operator can act on; the message says which. */
final class StartFailure extends RuntimeException {

    StartFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
