package org.donordata.adapters.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.application.fields.InMemoryCustomFieldRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/api.md, "Import and export (the command line)": progress on a terminal (rows done, rate, time left), a line a
 * second at most; none elsewhere.
 */
class ProgressTest {

    private final AtomicLong now = new AtomicLong();
    private final StringWriter shown = new StringWriter();

    @TempDir
    Path dir;

    private Progress progress(boolean toTerminal) {
        return new Progress(new PrintWriter(shown, true), toTerminal, now::get);
    }

    private void after(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void aLineASecondAtMostWithRowsRateAndTimeLeft() {
        Progress progress = progress(true);
        progress.start(1_000);
        after(1_000);
        progress.done(100, 100);
        after(500);
        progress.done(100, 200);
        after(500);
        progress.done(300, 500);
        progress.finish();

        assertEquals(List.of("  100 rows, 100 rows/s, about 9 s left", "  500 rows, 250 rows/s, about 2 s left"),
                shown.toString().lines().toList());
    }

    @Test
    void withoutASizeNoTimeLeftIsGuessed() {
        Progress progress = progress(true);
        progress.start(0);
        after(2_000);
        progress.done(1_000, 0);

        assertEquals(List.of("  1,000 rows, 500 rows/s"), shown.toString().lines().toList());
    }

    @Test
    void nothingIsShownWhenStandardErrorIsNoTerminal() {
        Progress progress = progress(false);
        progress.start(1_000);
        after(5_000);
        progress.done(1_000, 1_000);

        assertEquals("", shown.toString());
    }

    @Test
    void anImportReportsItsProgressAsItGoes() throws Exception {
        StringBuilder csv = new StringBuilder("first_name,last_name\n");
        for (int i = 0; i < 5_000; i++) {
            csv.append("Person,No ").append(i).append('\n');
        }
        Path file = Files.writeString(dir.resolve("donors.csv"), csv, StandardCharsets.UTF_8);
        InMemoryDonorRepository store = new InMemoryDonorRepository();
        Clock clock = Clock.fixed(Instant.parse("2026-11-24T10:00:00Z"), ZoneOffset.UTC);
        DonorService donors = new DonorService(store, clock);
        CustomFieldService fields = new CustomFieldService(new InMemoryCustomFieldRepository(store), store, clock);
        // Every row takes a millisecond on this clock: a line every thousand rows, with the time the rest will take.
        Progress progress = new Progress(new PrintWriter(shown, true), true, () -> now.getAndAdd(1_000_000L));

        new DonorImport(donors, fields, new PrintWriter(new StringWriter()), progress).run(new ApplicationId(1), file);

        assertEquals(List.of("  1,000 rows, 1,000 rows/s, about 4 s left", "  2,000 rows, 1,000 rows/s, about 3 s left",
                "  3,000 rows, 1,000 rows/s, about 2 s left", "  4,000 rows, 1,000 rows/s, about 1 s left",
                "  5,000 rows, 1,000 rows/s, about 0 s left"), shown.toString().lines().toList());
    }
}
