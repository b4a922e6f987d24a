/**
 * Webhooks' rules (docs/api.md, "Webhooks") that need nothing but the JDK: which addresses a message may go to, how a
 * message is signed (Standard Webhooks), its secrets, and when a failed message is sent again.
 */
package org.donordata.domain.webhooks;
