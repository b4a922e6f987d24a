/** An application's custom fields: their definitions (docs/api.md, "Custom fields"). */
package org.donordata.application.fields;
