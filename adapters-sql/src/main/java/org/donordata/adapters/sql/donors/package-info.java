/**
 * How donors are stored: the donor repository on every database, its queries and row mapping (driven by DonorField),
 * a write's transaction on an owner's rows, idempotency keys, change numbers and ordinals. What a database does its own
 * way it asks of its DatabaseKind.
 */
package org.donordata.adapters.sql.donors;
