/**
 * Webhooks' rules (contract section 16) that need nothing but the JDK: which addresses a message may go to, how a
 * message is signed (Standard Webhooks), its secrets, and when a failed message is sent again.
 */
package org.donordata.domain.webhooks;
