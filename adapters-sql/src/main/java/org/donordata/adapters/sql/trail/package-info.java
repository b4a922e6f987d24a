/**
 * The trail of who changed what (docs/api.md, "The trail"): its records, appended in the changes' transactions, and
 * read.
 */
package org.donordata.adapters.sql.trail;
