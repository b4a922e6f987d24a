package org.donordata.adapters.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.domain.Donor;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomValues;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;

/**
 * Writes every donor of an application, in id order, with every field of docs/api.md, "Donors" (and erased_at), as CSV
 * with a header of field names or as NDJSON: streamed, so memory stays the same however many donors there are. CSV
 * cells a spreadsheet would run as formulas are neutralised ({@link SpreadsheetCells}).
 */
final class DonorExport {

    enum Format { CSV, NDJSON }

    /**
     * Every field but custom and consent, which a CSV file writes as a column per custom field and per consent pair,
     * and NDJSON as objects.
     */
    private static final DonorField[] FIELDS = java.util.Arrays.stream(DonorField.values())
            .filter(field -> field != DonorField.CUSTOM && field != DonorField.CONSENT).toArray(DonorField[]::new);
    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());

    private final DonorService donors;
    private final CustomFieldService customFields;

    DonorExport(DonorService donors, CustomFieldService customFields) {
        this.donors = donors;
        this.customFields = customFields;
    }

    /** @return how many donors it wrote */
    long write(ApplicationId owner, Format format, Writer out, Progress progress) throws IOException {
        long[] written = {0};
        progress.start(0);
        try {
            if (format == Format.CSV) {
                List<CustomField> custom = customFields.all(owner);
                List<ConsentPair> pairs = donors.consentPairs(owner);
                CSVPrinter csv = CSVFormat.RFC4180.builder().setHeader(Stream.concat(Stream.concat(Arrays.stream(FIELDS)
                        .map(DonorField::key), custom.stream().map(CustomColumns::header)),
                        pairs.stream().map(ConsentColumns::header)).toArray(String[]::new))
                        .get().print(out);
                donors.forEach(owner, donor -> {
                    try {
                        for (DonorField field : FIELDS) {
                            csv.print(SpreadsheetCells.neutralised(text(donor.get(field))));
                        }
                        for (CustomField field : custom) {
                            csv.print(SpreadsheetCells.neutralised(
                                    CustomColumns.cell(donor.details().custom().get(field.key()))));
                        }
                        for (ConsentPair pair : pairs) {
                            ConsentStatus status = donor.details().consent().get(pair);
                            csv.print(status == null ? "" : status.wireName());
                        }
                        csv.println();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    counted(written, progress);
                });
                csv.flush();
            } else {
                donors.forEach(owner, donor -> {
                    ndjson(donor, out);
                    counted(written, progress);
                });
                out.flush();
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        progress.finish();
        return written[0];
    }

    private static void counted(long[] written, Progress progress) {
        written[0]++;
        if (written[0] % 1_000 == 0) {
            progress.done(1_000, 0);
        }
    }

    private static void ndjson(Donor donor, Writer out) {
        try {
            JsonGenerator json = JSON.createGenerator(new NonClosingWriter(out));
            json.writeStartObject();
            for (DonorField field : DonorField.values()) {
                Object value = donor.get(field);
                switch (value) {
                    case null -> json.writeNull(field.key());
                    case Boolean flag -> json.write(field.key(), flag);
                    case Long number -> json.write(field.key(), number);
                    case CustomValues custom -> {
                        json.writeStartObject(field.key());
                        custom.writeTo(new CustomMembers(json));
                        json.writeEnd();
                    }
                    case ConsentState consent -> {
                        json.writeStartObject(field.key());
                        consent.byKey().forEach((pair, status) -> json.write(pair, status.wireName()));
                        json.writeEnd();
                    }
                    default -> json.write(field.key(), text(value));
                }
            }
            json.writeEnd();
            json.close();
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Custom values as members of the JSON object the generator is in. */
    private record CustomMembers(JsonGenerator json) implements CustomValues.Writer {

        @Override
        public void text(String key, String value) {
            json.write(key, value);
        }

        @Override
        public void number(String key, BigDecimal value) {
            json.write(key, value);
        }

        @Override
        public void flag(String key, boolean value) {
            json.write(key, value);
        }

        @Override
        public void choices(String key, List<String> value) {
            json.writeStartArray(key);
            value.forEach(json::write);
            json.writeEnd();
        }
    }

    /** A value as text: a type by its key, an instant in RFC 3339, nothing for null. */
    private static String text(Object value) {
        return switch (value) {
            case null -> "";
            case DonorType type -> type.key();
            case Instant instant -> instant.toString();
            default -> value.toString();
        };
    }

    /** Lets a generator be closed (to flush it) without closing the output it writes to. */
    private static final class NonClosingWriter extends java.io.FilterWriter {

        NonClosingWriter(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
