package org.donordata.adapters.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.domain.Donor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The operator's commands on donors (docs/api.md, "Erasure" and "Import and export (the command line)"), run against
 * the database of the configuration, while the service runs or not: {@code import}, {@code export}, {@code erase} and
 * {@code audit}. Each opens the use cases for itself.
 */
public final class DonorCommands {

    /** The access log's logger (bootstrap's logging.properties): an erasure done here is recorded beside the API's. */
    static final String ACCESS_LOG = "donors.access";

    private DonorCommands() {
    }

    /** The commands, to add to the service's command line; bootstrap gives them the way to open the use cases. */
    public static Object[] all(DonorServices.Opener opener) {
        return new Object[] {new Import(opener), new Export(opener), new Erase(opener), new Audit(opener)};
    }

    private abstract static class Base implements Callable<Integer> {

        final DonorServices.Opener opener;
        @Spec
        CommandSpec spec;
        @Option(names = "--application", required = true, paramLabel = "ID",
                description = "The application whose donors these are (see 'apps list').")
        long application;

        Base(DonorServices.Opener opener) {
            this.opener = opener;
        }

        /** The application the command is for; refused, before anything is read or written, unless it exists. */
        ApplicationId owner(DonorServices services) {
            if (application < 1) {
                throw new IllegalArgumentException("An application id is a positive number, got " + application + ".");
            }
            ApplicationId owner = new ApplicationId(application);
            if (!services.hasApplication(owner)) {
                throw new IllegalArgumentException("There is no application " + application + " (see 'apps list').");
            }
            return owner;
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }
    }

    @Command(name = "import", description = {"Imports donors from a CSV file (a header of field names, UTF-8) or an"
            + " NDJSON file (.ndjson, .jsonl: one JSON object a line), every row checked as POST /api/v1/donors checks"
            + " it. A row with the external_id of a donor the application has modifies that donor. Refused rows are"
            + " reported with their line; the others go on; the exit status is 1 when any row was refused.",
        "Running the same file again, or again after it was stopped half-way, stores nothing twice."})
    static final class Import extends Base {

        @Parameters(paramLabel = "FILE", description = "The file to import.")
        Path file;

        @Option(names = "--report-duplicates", description = "After the import, list each donor it created that has"
                + " likely duplicates among the application's donors (as GET /api/v1/donors/{id}/duplicates finds"
                + " them): its line, its new id and the candidates' ids.")
        boolean reportDuplicates;

        Import(DonorServices.Opener opener) {
            super(opener);
        }

        @Override
        public Integer call() throws IOException {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("No file " + file + " to import.");
            }
            DonorImport.Summary summary;
            long withDuplicates = 0;
            try (DonorServices services = opener.open()) {
                ApplicationId owner = owner(services);
                DonorImport donorImport = new DonorImport(services.donors(), services.fields(), err(),
                        new Progress(err(), Progress.toTerminal()));
                summary = donorImport.run(owner, file);
                if (reportDuplicates) {
                    withDuplicates = donorImport.reportDuplicates(owner, out(),
                            new Progress(err(), Progress.toTerminal()));
                }
            }
            out().println(summary + (reportDuplicates ? "; " + withDuplicates + " created donors have likely"
                    + " duplicates" : ""));
            return summary.clean() ? 0 : 1;
        }
    }

    @Command(name = "export", description = {"Writes every donor of the application, in id order, with every field, as"
            + " CSV (a header of field names) or NDJSON, to FILE or standard output. An exported file imports into"
            + " another application as the same donors. CSV cells that a spreadsheet would run as a formula (starting"
            + " with =, +, -, @, a tab or a carriage return) start with an apostrophe, which import takes off again.",
        "FILE is written whole or not at all (a temporary file beside it, renamed at the end), readable by its owner"
                + " only; an existing FILE is replaced only with --force."})
    static final class Export extends Base {

        @Option(names = "--format", defaultValue = "csv", paramLabel = "csv|ndjson",
                description = "csv (the default) or ndjson.")
        String format;

        @Option(names = "--force", description = "Replace FILE if it exists.")
        boolean force;

        @Parameters(paramLabel = "FILE", arity = "0..1", description = "Where to write; standard output when left out.")
        Path file;

        Export(DonorServices.Opener opener) {
            super(opener);
        }

        @Override
        public Integer call() throws IOException {
            DonorExport.Format chosen = switch (format.toLowerCase(java.util.Locale.ROOT)) {
                case "csv" -> DonorExport.Format.CSV;
                case "ndjson", "jsonl" -> DonorExport.Format.NDJSON;
                default -> throw new IllegalArgumentException("--format must be csv or ndjson, got '" + format + "'.");
            };
            ExportFile target = file == null ? null : ExportFile.prepare(file, force);
            long written;
            try (DonorServices services = opener.open()) {
                ApplicationId owner = owner(services);
                DonorExport export = new DonorExport(services.donors(), services.fields());
                Progress progress = new Progress(err(), Progress.toTerminal());
                if (target == null) {
                    Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                    written = export.write(owner, chosen, out, progress);
                    out.flush();
                    if (System.out.checkError()) {
                        throw new IOException("cannot write to standard output");
                    }
                } else {
                    written = target.write(out -> export.write(owner, chosen, out, progress));
                }
            } finally {
                if (target != null) {
                    target.discard();
                }
            }
            err().println("Exported " + written + " donors.");
            return 0;
        }
    }

    @Command(name = "erase", description = "Erases a donor's personal data for good, as POST"
            + " /api/v1/donors/{id}/erase does: the donor keeps its id and type; the erasure is logged, never the data.")
    static final class Erase extends Base {

        @Option(names = "--donor", required = true, paramLabel = "ID", description = "The donor's id.")
        long donor;

        Erase(DonorServices.Opener opener) {
            super(opener);
        }

        @Override
        public Integer call() {
            Donor erased;
            try (DonorServices services = opener.open()) {
                erased = services.donors().erase(owner(services), Actor.command("erase"), donor);
            }
            System.getLogger(ACCESS_LOG).log(System.Logger.Level.INFO, "erasure of donor " + erased.id()
                    + " of application " + application + " by the command line");
            out().println("Erased donor " + erased.id() + " of application " + application + " at " + erased.erasedAt()
                    + ".");
            return 0;
        }
    }

    @Command(name = "audit", description = {"Writes the application's trail as NDJSON to standard output, in the order"
            + " it was written: one line per change of a donor (with its donor_id, the names of the fields changed,"
            + " never their values, who made it and the request) and per key event (key.created, key.rotated,"
            + " key.revoked, with no donor_id)."})
    static final class Audit extends Base {

        @Option(names = "--since", paramLabel = "RFC3339",
                description = "Only records made at or after this time, e.g. 2026-11-01T00:00:00Z.")
        String since;

        Audit(DonorServices.Opener opener) {
            super(opener);
        }

        @Override
        public Integer call() {
            Instant from = since == null ? Instant.EPOCH : parsed(since);
            long[] written = {0};
            try (DonorServices services = opener.open()) {
                ApplicationId owner = owner(services);
                services.trail().audit(owner, from, record -> {
                    out().println(AuditLines.line(record));
                    written[0]++;
                });
            }
            out().flush();
            err().println("Wrote " + written[0] + " records.");
            return 0;
        }

        private static Instant parsed(String text) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException notRfc3339) {
                throw new IllegalArgumentException("--since is an RFC 3339 time such as 2026-11-01T00:00:00Z, got '"
                        + text + "'.");
            }
        }
    }
}
