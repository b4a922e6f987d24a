/** Custom field definitions (docs/api.md, "Custom fields"). */
package org.donordata.adapters.sql.fields;
