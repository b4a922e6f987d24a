/** How applications and their keys are stored, and the cache in front of the key look-up. */
package org.donordata.adapters.sql.applications;
