/**
 * Webhooks (docs/api.md, "Webhooks"): the endpoints an application registers ({@link WebhookService}) and the delivery
 * of its donors' changes to them ({@link WebhookDelivery}), through the ports {@link WebhookRepository} and
 * {@link WebhookSender}. Threads, timers and sockets are the adapters': each delivery here is one synchronous run.
 */
package org.donordata.application.webhooks;
