package org.donordata.application.webhooks;

import java.util.Map;

import org.donordata.domain.webhooks.WebhookUrl;

/**
 * Sends one message to an endpoint and says how it was answered. Implementations check the address they actually
 * connect to against the refused ranges, follow no redirect, bound the wait for an answer, and read at most a small
 * part of it. Implemented in adapters-webhooks.
 */
public interface WebhookSender {

    /** How a message fared. */
    sealed interface Result {

        boolean succeeded();
    }

    /** The endpoint answered with this status. */
    record Answered(int status) implements Result {

        @Override
        public boolean succeeded() {
            return status >= 200 && status < 300;
        }
    }

    /**
     * No answer: what went wrong, as the API shows it ("timed out", "refused address", "connection failed").
     */
    record Failed(String reason) implements Result {

        @Override
        public boolean succeeded() {
            return false;
        }
    }

    /**
     * POSTs {@code body} with these headers to the endpoint's URL. An endpoint's messages are sent one at a time, so an
     * implementation may keep a connection to it between them.
     */
    Result send(long endpointId, WebhookUrl url, Map<String, String> headers, byte[] body);
}
