/** The trail of who changed what (contract section 14): its records, appended in the changes' transactions, and read. */
package org.donordata.adapters.sql.trail;
