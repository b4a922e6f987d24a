/** Webhook endpoints and where delivery to each stands, in {@code webhook_endpoints} (V11). */
package org.donordata.adapters.sql.webhooks;
