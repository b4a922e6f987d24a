package org.donordata.application;

/** An operator's command on applications that cannot be carried out; the message says why. */
public final class ApplicationCommandException extends RuntimeException {

    public ApplicationCommandException(String message) {
        super(message, null, false, false);
    }
}
