/** Consent records, with their evidence (docs/api.md, "Consent"). */
package org.donordata.adapters.sql.consent;
