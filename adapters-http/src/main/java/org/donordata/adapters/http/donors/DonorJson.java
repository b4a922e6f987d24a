package org.donordata.adapters.http.donors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import org.donordata.application.ApiKey;
import org.donordata.application.Caller;
import org.donordata.application.ConsentRecord;
import org.donordata.application.DonorDocument;
import org.donordata.application.Duplicate;
import org.donordata.application.Scope;
import org.donordata.domain.DuplicateKeys;

/** Writes donors as clients see them: every field, in field order, under its key; and what the API says about itself. */
final class DonorJson {

    static final String SERVICE_NAME = "Donor Data Service";
    static final int API_VERSION = 1;

    private DonorJson() {
    }

    /**
     * The donors, every field in field order under its snake_case key, each copied as the store wrote it (the bytes
     * are already that object, never read or encoded again).
     */
    static void donors(JsonGenerator json, List<DonorDocument> donors) throws IOException {
        json.writeStartArray();
        for (DonorDocument donor : donors) {
            switch (donor) {
                case DonorDocument.Json written -> json.writeRawValue(new Utf8Json(written.utf8()));
            }
        }
        json.writeEndArray();
    }

    /** What {@code GET /api/v1} answers: the service, and the application and key calling it (never its secret). */
    static void service(JsonGenerator json, Caller caller) throws IOException {
        json.writeStartArray();
        json.writeStartObject();
        json.writeStringField("service", SERVICE_NAME);
        json.writeNumberField("api_version", API_VERSION);
        json.writeObjectFieldStart("application");
        json.writeNumberField("id", caller.application().id().value());
        json.writeStringField("name", caller.application().name());
        json.writeEndObject();
        ApiKey key = caller.key();
        json.writeObjectFieldStart("key");
        json.writeNumberField("id", key.id());
        json.writeStringField("name", key.name());
        json.writeArrayFieldStart("scopes");
        for (Scope scope : key.scopes()) {
            json.writeString(scope.wireName());
        }
        json.writeEndArray();
        json.writeStringField("expires_at", key.expiresAt().map(Instant::toString).orElse(null));
        json.writeEndObject();
        json.writeEndObject();
        json.writeEndArray();
    }

    /**
     * Likely duplicates (docs/api.md, "Duplicates and merge"): each donor with one more member, {@code matched}, its
     * reasons.
     */
    static void duplicates(JsonGenerator json, List<Duplicate> duplicates) throws IOException {
        json.writeStartArray();
        for (Duplicate duplicate : duplicates) {
            switch (duplicate.donor()) {
                case DonorDocument.Json written ->
                    json.writeRawValue(new Utf8Json(withMatched(written.utf8(), duplicate.matched())));
            }
        }
        json.writeEndArray();
    }

    /** A donor's object as the store wrote it, with {@code matched} as its last member. */
    private static byte[] withMatched(byte[] object, List<DuplicateKeys.Reason> matched) {
        int end = object.length - 1;
        // A donor's object always has members, so a comma can follow the last one.
        if (end < 2 || object[end] != '}' || object[end - 1] == '{') {
            throw new IllegalStateException("a stored donor's document is no JSON object with members");
        }
        StringBuilder member = new StringBuilder(",\"matched\":[");
        for (int i = 0; i < matched.size(); i++) {
            // Reason keys are snake_case ASCII: nothing in them to escape.
            member.append(i == 0 ? "\"" : ",\"").append(matched.get(i).key()).append('"');
        }
        byte[] tail = member.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
        byte[] joined = Arrays.copyOf(object, end + tail.length);
        System.arraycopy(tail, 0, joined, end, tail.length);
        return joined;
    }

    /** A donor's consent records (docs/api.md, "Consent"), each with who recorded it as the trail names an actor. */
    static void consents(JsonGenerator json, List<ConsentRecord> records) throws IOException {
        json.writeStartArray();
        for (ConsentRecord record : records) {
            json.writeStartObject();
            json.writeNumberField("id", record.id());
            json.writeStringField("channel", record.pair().channel().wireName());
            json.writeStringField("purpose", record.pair().purpose());
            json.writeStringField("status", record.status().wireName());
            json.writeStringField("given_at", record.givenAt().toString());
            json.writeStringField("recorded_at", record.recordedAt().toString());
            json.writeStringField("source", record.source());
            json.writeStringField("method", record.method().wireName());
            json.writeFieldName("statement");
            if (record.statement() == null) {
                json.writeNull();
            } else {
                json.writeString(record.statement());
            }
            json.writeFieldName("recorded_by");
            TrailJson.actor(json, record.recordedBy());
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
