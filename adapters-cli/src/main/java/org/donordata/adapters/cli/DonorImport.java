package org.donordata.adapters.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.Duplicate;
import org.donordata.application.KeyedCreate;
import org.donordata.application.Upserted;
import org.donordata.domain.DomainException;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorField;
import org.donordata.domain.Texts;

/**
 * Imports a file of donors into one application through the same use cases as the API (docs/api.md,
 * "Import and export (the command line)"): a row with an external id creates or modifies the donor with it, as POST
 * /donors/external/{id} does; any other row creates a donor at most once per content
 * (DonorService.createOncePerContent), so that running the same file again, or again after it was killed half-way, or
 * after its refused rows were corrected, stores nothing twice (within the idempotency keys' lifetime). A row identical
 * to one above it is that donor again. Rows go to the use cases a window at a time, concurrently, so that SQLite's
 * writer commits many of them at once.
 */
final class DonorImport {

    /** Who the trail says made the changes of an import. */
    static final Actor IMPORTER = Actor.command("import");

    /** Rows in flight at most: enough for the writer to group many into a commit, few enough to bound memory. */
    static final int WINDOW = 256;

    /** What an import did. */
    record Summary(long created, long modified, long repeated, long erasedSkipped, long refused,
            Optional<String> stoppedBecause) {

        boolean clean() {
            return refused == 0 && stoppedBecause.isEmpty();
        }

        @Override
        public String toString() {
            return "created " + created + ", modified " + modified + ", refused " + refused
                    + (repeated > 0 ? "; " + repeated + " already stored (by an earlier import, or an identical row"
                            + " above)" : "")
                    + (erasedSkipped > 0 ? "; " + erasedSkipped + " erased or merged donors passed over" : "");
        }
    }

    private enum Outcome { CREATED, MODIFIED, REPEATED, ERASED }

    private final DonorService donors;
    private final CustomFieldService fields;
    private final PrintWriter refusals;
    private final Progress progress;

    DonorImport(DonorService donors, CustomFieldService fields, PrintWriter refusals, Progress progress) {
        this.donors = donors;
        this.fields = fields;
        this.refusals = refusals;
        this.progress = progress;
    }

    Summary run(ApplicationId owner, Path file) throws IOException {
        Tally tally = new Tally();
        Optional<String> stopped = Optional.empty();
        try (InputStream in = Files.newInputStream(file);
                BoundedReader reader = new BoundedReader(in);
                ExecutorService rows = Executors.newVirtualThreadPerTaskExecutor()) {
            progress.start(Files.size(file));
            // Rows in flight, in file order: refusals are reported in line order, and the oldest is waited for
            // only when the window is full, so the writer always has rows to group.
            Deque<InFlight> inFlight = new ArrayDeque<>();
            // The last row in flight of each external id: a later row of the same id waits for it, so that rows of one
            // donor apply in file order and the last one wins, as they would one at a time.
            Map<String, Future<Imported>> lastOfId = new HashMap<>();
            try (ImportRows source = ImportRows.of(file.getFileName().toString(), reader,
                    fields.all(owner))) {
                for (Optional<ImportRow> row = source.next(); row.isPresent(); row = source.next()) {
                    ImportRow each = row.get();
                    String fileName = file.getFileName().toString();
                    String id = externalId(each);
                    Future<Imported> before = id == null ? null : lastOfId.get(id);
                    Future<Imported> outcome = rows.submit(() -> {
                        awaitQuietly(before);
                        return importRow(owner, each, fileName);
                    });
                    if (id != null) {
                        lastOfId.put(id, outcome);
                    }
                    inFlight.add(new InFlight(each.line(), id, outcome));
                    while (inFlight.size() >= WINDOW || !inFlight.isEmpty() && inFlight.peek().outcome().isDone()) {
                        InFlight done = inFlight.remove();
                        tally.add(done);
                        // Bounded by the window: an id is forgotten once its last row in flight is counted.
                        if (done.externalId() != null) {
                            lastOfId.remove(done.externalId(), done.outcome());
                        }
                    }
                    progress.done(1, reader.characters());
                }
            } catch (ImportFileException unusable) {
                stopped = Optional.of(unusable.getMessage());
            } finally {
                while (!inFlight.isEmpty()) {
                    tally.add(inFlight.remove());
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopped = Optional.of("Interrupted.");
        }
        stopped.ifPresent(refusals::println);
        progress.finish();
        return new Summary(tally.of(Outcome.CREATED), tally.of(Outcome.MODIFIED), tally.of(Outcome.REPEATED),
                tally.of(Outcome.ERASED), tally.refused, stopped);
    }

    private record InFlight(long line, String externalId, Future<Imported> outcome) {
    }

    /** The row's external id as its upsert finds the donor by (trimmed), or null when it has none. */
    private static String externalId(ImportRow row) {
        return row.unreadable() == null && !row.erased()
                && row.document().get(DonorField.EXTERNAL_ID.key()) instanceof String id && !id.isBlank()
                ? Texts.trim(id) : null;
    }

    /** Waits for the row before, whatever came of it: refused or not, it was the file's earlier word. */
    private static void awaitQuietly(Future<Imported> before) throws InterruptedException {
        if (before == null) {
            return;
        }
        try {
            before.get();
        } catch (ExecutionException refused) {
            // Its refusal is counted and reported with its own line.
        }
    }

    /** What the rows did so far; a refused row is reported as it is counted. */
    private final class Tally {

        private final long[] counts = new long[Outcome.values().length];
        private long refused;

        void add(InFlight row) throws InterruptedException {
            try {
                Imported imported = row.outcome().get();
                counts[imported.outcome().ordinal()]++;
                if (imported.outcome() == Outcome.CREATED) {
                    remember(row.line(), imported.donorId());
                }
            } catch (ExecutionException failed) {
                refused++;
                refusals.println("line " + row.line() + ": " + reason(failed.getCause()));
            }
        }

        long of(Outcome outcome) {
            return counts[outcome.ordinal()];
        }
    }

    /** What a row did, and to which donor (0 for none). */
    private record Imported(Outcome outcome, long donorId) {
    }

    private Imported importRow(ApplicationId owner, ImportRow row, String fileName) {
        if (row.unreadable() != null) {
            throw new IllegalArgumentException("the line " + row.unreadable());
        }
        if (row.erased()) {
            return new Imported(Outcome.ERASED, 0);
        }
        DonorChanges fields = DonorChanges.from(row.document());
        // Checked before the donor is written: a refused row stores nothing.
        Map<ConsentPair, ConsentStatus> consent = ConsentColumns.states(row.consent());
        String externalId = externalId(row);
        Imported imported;
        // The donor and its consent in one transaction: a consent refused (the 51st purpose) stores nothing of the row.
        if (externalId != null) {
            Upserted upserted = donors.importUpsert(owner, IMPORTER, externalId, fields, consent, fileName);
            imported = new Imported(upserted.created() ? Outcome.CREATED : Outcome.MODIFIED, upserted.donor().id());
        } else {
            KeyedCreate created = donors.createOncePerContent(owner, IMPORTER, fields, consent, fileName);
            imported = new Imported(created.repeated() ? Outcome.REPEATED : Outcome.CREATED, created.donorId());
        }
        return imported;
    }

    /**
     * Writes, for each donor this import created, in line order, the likely duplicates it has among the application's
     * donors now (DonorService.duplicates: the API's rule), one line each: the file's line, the new donor's id and the
     * candidates' ids. Donors without any are not listed.
     *
     * @return how many donors have likely duplicates
     */
    long reportDuplicates(ApplicationId owner, PrintWriter out, Progress progress) {
        long withDuplicates = 0;
        progress.start(createdCount);
        for (int i = 0; i < createdCount; i++) {
            List<Duplicate> duplicates = donors.duplicates(owner, createdIds[i]);
            if (!duplicates.isEmpty()) {
                withDuplicates++;
                out.println("line " + createdLines[i] + ": donor " + createdIds[i] + " is likely the same as "
                        + duplicates.stream().map(duplicate -> String.valueOf(duplicate.donor().id()))
                                .collect(Collectors.joining(", ")));
            }
            progress.done(1, i + 1);
        }
        progress.finish();
        return withDuplicates;
    }

    // The donors created, by line, for the report: two arrays rather than objects, since an import may create millions.
    private long[] createdLines = new long[1024];
    private long[] createdIds = new long[1024];
    private int createdCount;

    private void remember(long line, long donorId) {
        if (createdCount == createdIds.length) {
            createdLines = Arrays.copyOf(createdLines, createdCount * 2);
            createdIds = Arrays.copyOf(createdIds, createdCount * 2);
        }
        createdLines[createdCount] = line;
        createdIds[createdCount++] = donorId;
    }

    /** The core's own words for what it refused; anything else (the database gone) is no row's fault: it stops. */
    private static String reason(Throwable refusal) {
        if (refusal instanceof DomainException || refusal instanceof IllegalArgumentException) {
            return refusal.getMessage();
        }
        throw refusal instanceof RuntimeException unexpected ? unexpected : new IllegalStateException(refusal);
    }
}
