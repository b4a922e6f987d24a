package org.donordata.adapters.http.archfixture;

import io.helidon.webclient.api.WebClient;

/** Deliberately breaks the rules: the API's adapter making outbound calls with Helidon's client, the webhooks'. */
public class HttpSendingWebhooks {
    WebClient client;
}
