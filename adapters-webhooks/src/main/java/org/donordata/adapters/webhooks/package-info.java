/**
 * The webhooks' outbound HTTP: {@link org.donordata.adapters.webhooks.HttpWebhookSender}, the application's
 * WebhookSender on Helidon's WebClient, its only public type. A driven adapter, a peer of the others: it knows none of
 * them. Depends on the application and domain modules and Helidon WebClient.
 */
package org.donordata.adapters.webhooks;
