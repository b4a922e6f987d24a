package org.donordata.application;

/**
 * A driven adapter cannot take on more work now (for example, its queue of writes is full, or it is shutting down).
 * Nothing was done; the client may retry shortly. Driving adapters answer it as a temporary condition (HTTP: 503).
 */
public final class ServiceBusyException extends RuntimeException {

    public ServiceBusyException(String message) {
        super(message, null, false, false);
    }
}
