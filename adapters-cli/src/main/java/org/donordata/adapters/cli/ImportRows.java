package org.donordata.adapters.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonConfig;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;
import org.donordata.domain.CustomField;
import org.donordata.domain.DonorField;
import org.donordata.domain.Texts;

/**
 * The donors of an import file, one at a time: CSV with a header of field names (RFC 4180 quoting, line breaks in
 * quoted values, CRLF), or NDJSON, one JSON object a line. Columns or keys an export writes but a client never sends
 * (id, created_at, updated_at, erased_at, merged_into) are passed over, so that an export imports as it is; a row
 * with erased_at or merged_into set stands for a donor whose data is gone, which the import skips.
 */
abstract sealed class ImportRows implements AutoCloseable permits ImportRows.Csv, ImportRows.Ndjson {

    final BoundedReader reader;

    private ImportRows(BoundedReader reader) {
        this.reader = reader;
    }

    /** @param fields the application's custom fields, the {@code custom.KEY} columns a CSV file may have */
    static ImportRows of(String fileName, BoundedReader reader, List<CustomField> fields) throws ImportFileException {
        String name = fileName.toLowerCase(Locale.ROOT);
        return name.endsWith(".ndjson") || name.endsWith(".jsonl") ? new Ndjson(reader) : new Csv(reader, fields);
    }

    /** The next donor, empty at the end of the file. */
    abstract Optional<ImportRow> next() throws ImportFileException;

    @Override
    public void close() throws IOException {
        reader.close();
    }

    ImportFileException unreadable(IOException e) {
        return new ImportFileException("The file could not be read on from line " + reader.line() + " ("
                + e.getMessage() + "); nothing from there on was read.");
    }

    /** Whether the member says, when set, that the row's donor is gone: erased_at, merged_into. */
    private static boolean gone(String name) {
        return name.equals(DonorField.ERASED_AT.key()) || name.equals(DonorField.MERGED_INTO.key());
    }

    /** An export's erased_at or merged_into, when set: the row stands for an erased or merged donor. */
    static boolean erased(Object erasedAt) {
        return erasedAt instanceof String text ? !text.isBlank() : erasedAt != null && erasedAt != JsonValue.NULL;
    }

    static boolean exportOnly(String name) {
        return DonorField.fromKey(name).map(field -> !field.writable()).orElse(false);
    }

    static final class Csv extends ImportRows {

        private final CSVParser parser;
        private final Iterator<CSVRecord> records;
        private final List<String> header;
        /** The custom field of each column of the header, null for a donor field's. */
        private final List<CustomField> customOfColumn = new ArrayList<>();
        /** The consent pair each column of the header names (consent.CHANNEL:PURPOSE), null for others. */
        private final List<String> consentOfColumn = new ArrayList<>();
        private long linesRead = 1;

        Csv(BoundedReader reader, List<CustomField> fields) throws ImportFileException {
            super(reader);
            try {
                this.parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                        .setDuplicateHeaderMode(DuplicateHeaderMode.DISALLOW).get().parse(reader);
            } catch (IOException e) {
                throw unreadable(e);
            } catch (IllegalArgumentException badHeader) {
                throw new ImportFileException("The header cannot be used: " + badHeader.getMessage()
                        + ". Nothing was imported.");
            }
            this.header = parser.getHeaderNames();
            if (header.stream().anyMatch(BoundedReader::notUtf8)) {
                throw new ImportFileException("The file is not UTF-8 text: its header is not. Nothing was imported.");
            }
            List<String> unknown = new ArrayList<>();
            for (String name : header) {
                CustomField custom = fields.stream().filter(field -> CustomColumns.header(field).equals(name))
                        .findFirst().orElse(null);
                customOfColumn.add(custom);
                String pair = ConsentColumns.pairOf(name).orElse(null);
                consentOfColumn.add(pair);
                if (custom == null && pair == null && DonorField.fromKey(name)
                        .filter(field -> field != DonorField.CUSTOM && field != DonorField.CONSENT).isEmpty()) {
                    unknown.add(name);
                }
            }
            if (header.isEmpty() || !unknown.isEmpty()) {
                throw new ImportFileException("The header must name donor fields and the application's custom fields"
                        + " only; it names " + (header.isEmpty()
                        ? "none" : String.join(", ", unknown.stream().map(name -> "'" + name + "'").toList()))
                        + " (fields: " + String.join(", ", java.util.stream.Stream.concat(java.util.Arrays.stream(
                        DonorField.values()).filter(field -> field != DonorField.CUSTOM && field != DonorField.CONSENT)
                        .map(DonorField::key), fields.stream().map(CustomColumns::header)).toList())
                        + ", and consent.CHANNEL:PURPOSE columns). Nothing was imported.");
            }
            this.records = parser.iterator();
        }

        @Override
        Optional<ImportRow> next() throws ImportFileException {
            try {
                if (!records.hasNext()) {
                    return Optional.empty();
                }
                CSVRecord record = records.next();
                long line = linesRead + 1;
                linesRead = parser.getCurrentLineNumber();
                if (record.stream().anyMatch(BoundedReader::notUtf8)) {
                    return Optional.of(ImportRow.unreadable(line, "is not valid UTF-8"));
                }
                Map<String, Object> document = new LinkedHashMap<>();
                Map<String, Object> custom = new LinkedHashMap<>();
                Map<String, Object> consent = new LinkedHashMap<>();
                boolean erased = false;
                for (int i = 0; i < header.size(); i++) {
                    String name = header.get(i);
                    String value = SpreadsheetCells.restored(i < record.size() ? record.get(i) : "");
                    CustomField field = customOfColumn.get(i);
                    if (consentOfColumn.get(i) != null) {
                        // An empty cell records nothing.
                        if (!value.isBlank()) {
                            consent.put(consentOfColumn.get(i), Texts.trim(value));
                        }
                    } else if (field != null) {
                        // An empty cell sets nothing: an import creates, and an archived field's column may be empty.
                        if (!value.isEmpty()) {
                            custom.put(field.key(), CustomColumns.value(field, value));
                        }
                    } else if (gone(name)) {
                        erased |= erased(value);
                    } else if (!exportOnly(name)) {
                        cell(DonorField.fromKey(name).orElseThrow(), value, document);
                    }
                }
                if (!custom.isEmpty()) {
                    document.put(CustomField.DONOR_MEMBER, custom);
                }
                return Optional.of(new ImportRow(line, document, consent, erased, null));
            } catch (UncheckedIOException | IllegalStateException malformed) {
                // How the parser refuses a stray quote, in the row after the last one read (the reader has read
                // ahead of the parser by a buffer, so its own line is no guide).
                String why = malformed instanceof UncheckedIOException io ? io.getCause().getMessage()
                        : malformed.getMessage();
                throw new ImportFileException("The CSV is malformed in the row from line " + (linesRead + 1) + " ("
                        + why + "); nothing from there on was read.");
            }
        }

        /** A cell as a client would send the field: an empty cell leaves a flag or the type out, and clears text. */
        private static void cell(DonorField field, String value, Map<String, Object> document) {
            switch (field.kind()) {
                case FLAG -> {
                    if (!value.isBlank()) {
                        String flag = value.strip().toLowerCase(Locale.ROOT);
                        document.put(field.key(), flag.equals("true") ? Boolean.TRUE
                                : flag.equals("false") ? Boolean.FALSE : value);
                    }
                }
                case TYPE -> {
                    if (!value.isBlank()) {
                        document.put(field.key(), value);
                    }
                }
                default -> document.put(field.key(), value.isEmpty() ? null : value);
            }
        }

        @Override
        public void close() throws IOException {
            parser.close();
        }
    }

    static final class Ndjson extends ImportRows {

        // As the API reads a body (adapters-http's JsonBody): a repeated key is refused rather than the last one
        // taken, and nesting is bounded, so a line is accepted exactly when the same object would be as a POST body.
        private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of(
                JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE,
                "org.eclipse.parsson.rejectDuplicateKeys", true,
                "org.eclipse.parsson.maxDepth", 32));

        private final BufferedReader lines;
        private long line;

        Ndjson(BoundedReader reader) {
            super(reader);
            this.lines = new BufferedReader(reader);
        }

        @Override
        Optional<ImportRow> next() throws ImportFileException {
            try {
                String text;
                do {
                    text = lines.readLine();
                    line++;
                } while (text != null && text.isBlank());
                if (text == null) {
                    return Optional.empty();
                }
                if (BoundedReader.notUtf8(text)) {
                    return Optional.of(ImportRow.unreadable(line, "is not valid UTF-8"));
                }
                Map<String, Object> document = new LinkedHashMap<>();
                Map<String, Object> consent = new LinkedHashMap<>();
                boolean erased = false;
                JsonObject object;
                try (var json = READERS.createReader(new StringReader(text))) {
                    object = json.readObject();
                } catch (JsonException | IllegalStateException notAnObject) {
                    // IllegalStateException: how Parsson refuses a repeated key.
                    return Optional.of(ImportRow.unreadable(line, "is not one JSON object without repeated keys"));
                } catch (NumberFormatException exponentPastAnInt) {
                    // How Parsson refuses a number such as 1e9999999999, which no BigDecimal holds.
                    return Optional.of(ImportRow.unreadable(line, "holds a number too large to read"));
                }
                for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                    if (gone(member.getKey())) {
                        erased |= erased(member.getValue());
                    } else if (member.getKey().equals(CustomField.DONOR_MEMBER)) {
                        document.put(member.getKey(), tree(member.getValue()));
                    } else if (member.getKey().equals(DonorField.CONSENT.key())) {
                        if (member.getValue() instanceof JsonObject pairs) {
                            pairs.forEach((pair, status) -> consent.put(pair, plain(status)));
                        } else {
                            consent.put("", member.getValue());
                        }
                    } else if (!exportOnly(member.getKey())) {
                        document.put(member.getKey(), plain(member.getValue()));
                    }
                }
                return Optional.of(new ImportRow(line, document, consent, erased, null));
            } catch (IOException e) {
                throw unreadable(e);
            }
        }

        /** A {@code custom} member as CustomValueChanges reads it: objects as Maps, arrays as Lists, numbers exact. */
        private static Object tree(JsonValue value) {
            return switch (value.getValueType()) {
                case NUMBER -> ((JsonNumber) value).bigDecimalValue();
                case ARRAY -> value.asJsonArray().stream().map(Ndjson::tree).toList();
                case OBJECT -> {
                    Map<String, Object> members = new LinkedHashMap<>();
                    value.asJsonObject().forEach((name, member) -> members.put(name, tree(member)));
                    yield members;
                }
                default -> plain(value);
            };
        }

        private static Object plain(JsonValue value) {
            return switch (value.getValueType()) {
                case STRING -> ((JsonString) value).getString();
                case TRUE -> Boolean.TRUE;
                case FALSE -> Boolean.FALSE;
                case NULL -> null;
                case NUMBER, ARRAY, OBJECT -> value;
            };
        }
    }
}
