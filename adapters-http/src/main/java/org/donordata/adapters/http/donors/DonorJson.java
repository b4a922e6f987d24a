package org.donordata.adapters.http.donors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import org.donordata.application.ApiKey;
import org.donordata.application.Caller;
import org.donordata.application.ConsentRecord;
import org.donordata.application.DonorDocument;
import org.donordata.application.Duplicate;
import org.donordata.application.Scope;
import org.donordata.domain.Donor;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.CustomValues;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;

/** Writes donors as clients see them: every field, in field order, under its key; and what the API says about itself. */
final class DonorJson {

    static final String SERVICE_NAME = "Donor Data Service";
    static final int API_VERSION = 1;
    // Once: values() copies the array on every call, and this runs for every donor written.
    private static final DonorField[] FIELDS = DonorField.values();
    // Each field's key, encoded once.
    private static final SerializableString[] KEYS = Arrays.stream(FIELDS)
            .map(field -> new SerializedString(field.key())).toArray(SerializableString[]::new);

    private DonorJson() {
    }

    /**
     * The donors, every field in field order under its snake_case key: a document the store wrote is copied as it is
     * (the bytes are already that object, never read or encoded again); one it left to this adapter is written here.
     */
    static void donors(JsonGenerator json, List<DonorDocument> donors) throws IOException {
        json.writeStartArray();
        for (DonorDocument donor : donors) {
            switch (donor) {
                case DonorDocument.Json written -> json.writeRawValue(new Utf8Json(written.utf8()));
                case DonorDocument.Fields fields -> donor(json, fields.donor());
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
        json.writeFieldName("expires_at");
        value(json, key.expiresAt().orElse(null));
        json.writeEndObject();
        json.writeEndObject();
        json.writeEndArray();
    }

    private static void donor(JsonGenerator json, Donor donor) throws IOException {
        json.writeStartObject();
        fields(json, donor);
        json.writeEndObject();
    }

    private static void fields(JsonGenerator json, Donor donor) throws IOException {
        for (int i = 0; i < FIELDS.length; i++) {
            json.writeFieldName(KEYS[i]);
            value(json, donor.get(FIELDS[i]));
        }
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
                case DonorDocument.Fields fields -> {
                    json.writeStartObject();
                    fields(json, fields.donor());
                    json.writeArrayFieldStart("matched");
                    for (DuplicateKeys.Reason reason : duplicate.matched()) {
                        json.writeString(reason.key());
                    }
                    json.writeEndArray();
                    json.writeEndObject();
                }
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

    private static void value(JsonGenerator json, Object value) throws IOException {
        switch (value) {
            case null -> json.writeNull();
            case String text -> json.writeString(text);
            case Boolean flag -> json.writeBoolean(flag);
            case Long number -> json.writeNumber(number);
            case DonorType type -> json.writeString(type.key());
            case Instant instant -> json.writeString(instant.toString());
            case BigDecimal number -> json.writeNumber(number);
            case List<?> choices -> {
                json.writeStartArray();
                for (Object choice : choices) {
                    json.writeString((String) choice);
                }
                json.writeEndArray();
            }
            case CustomValues custom -> {
                json.writeStartObject();
                for (Map.Entry<String, Object> member : custom.byKey().entrySet()) {
                    json.writeFieldName(member.getKey());
                    value(json, member.getValue());
                }
                json.writeEndObject();
            }
            case ConsentState consent -> {
                json.writeStartObject();
                for (Map.Entry<String, ConsentStatus> pair : consent.byKey().entrySet()) {
                    json.writeStringField(pair.getKey(), pair.getValue().wireName());
                }
                json.writeEndObject();
            }
            default -> throw new IllegalStateException("no JSON form for a " + value.getClass().getSimpleName());
        }
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
