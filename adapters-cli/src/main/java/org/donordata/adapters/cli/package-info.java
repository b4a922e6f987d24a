/**
 * The command-line adapter: import, export and erasure of donors (contract sections 11 and 13), a driving adapter
 * beside adapters-http on the same use cases. Depends on the application and domain modules, picocli, Commons CSV and
 * JSON-P; never on another adapter.
 */
package org.donordata.adapters.cli;
