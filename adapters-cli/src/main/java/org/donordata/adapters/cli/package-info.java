/**
 * The command-line adapter: import, export and erasure of donors (docs/api.md, "Erasure" and
 * "Import and export (the command line)"), a driving adapter beside adapters-http on the same use cases. Depends on the
 * application and domain modules, picocli, Commons CSV and JSON-P; never on another adapter.
 */
package org.donordata.adapters.cli;
