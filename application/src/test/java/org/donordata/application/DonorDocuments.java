package org.donordata.application;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;
import org.donordata.domain.Donor;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.CustomValues;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;

/**
 * The tests' reference for the JSON object of a donor (docs/api.md, "Donors"), written with JSON-P, and the reading of
 * any store's document back into the donor it shows, strictly: every field's key, in field order, each value of its
 * field's JSON type, instants as {@link Instant#toString()} writes them. A document the store left to the driving
 * adapter is its donor (adapters-http's tests check how that is written).
 */
public final class DonorDocuments {

    private DonorDocuments() {
    }

    /** The document of a donor, as the in-memory store renders it. */
    public static DonorDocument render(Donor donor) {
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        try (JsonGenerator object = Json.createGenerator(json)) {
            object.writeStartObject();
            for (DonorField field : DonorField.values()) {
                Object value = donor.get(field);
                switch (value) {
                    case null -> object.writeNull(field.key());
                    case String text -> object.write(field.key(), text);
                    case Boolean flag -> object.write(field.key(), flag);
                    case Long number -> object.write(field.key(), number);
                    case DonorType type -> object.write(field.key(), type.key());
                    case Instant instant -> object.write(field.key(), instant.toString());
                    case CustomValues custom -> {
                        object.writeStartObject(field.key());
                        custom.byKey().forEach((key, member) -> {
                            switch (member) {
                                case String text -> object.write(key, text);
                                case BigDecimal number -> object.write(key, number);
                                case Boolean flag -> object.write(key, flag);
                                case List<?> choices -> {
                                    object.writeStartArray(key);
                                    choices.forEach(choice -> object.write((String) choice));
                                    object.writeEnd();
                                }
                                default -> throw new IllegalStateException("no JSON form for " + member);
                            }
                        });
                        object.writeEnd();
                    }
                    case ConsentState consent -> {
                        object.writeStartObject(field.key());
                        consent.byKey().forEach((key, status) -> object.write(key, status.wireName()));
                        object.writeEnd();
                    }
                    default -> throw new IllegalStateException("no JSON form for " + value);
                }
            }
            object.writeEnd();
        }
        return new DonorDocument.Json(donor.id(), donor.version(), json.toByteArray());
    }

    /**
     * The donor a document shows, at the document's version.
     *
     * @throws AssertionError when the document is not exactly the JSON object of a donor
     */
    public static Donor donor(DonorDocument document) {
        return switch (document) {
            case DonorDocument.Json json -> donor(json);
        };
    }

    private static Donor donor(DonorDocument.Json document) {
        String text = new String(document.utf8(), StandardCharsets.UTF_8);
        JsonObject object;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(document.utf8()))) {
            object = reader.readObject();
        } catch (RuntimeException e) {
            throw new AssertionError("not a JSON object: " + text, e);
        }
        List<String> keys = new ArrayList<>(object.keySet());
        List<String> expected = java.util.Arrays.stream(DonorField.values()).map(DonorField::key).toList();
        if (!keys.equals(expected)) {
            throw new AssertionError("keys " + keys + ", expected " + expected + ": " + text);
        }
        Map<DonorField, Object> record = new EnumMap<>(DonorField.class);
        for (DonorField field : DonorField.values()) {
            record.put(field, value(field, object.get(field.key()), text));
        }
        Donor donor = Donor.of(record, document.version());
        if (donor.id() != document.id()) {
            throw new AssertionError("a document of donor " + donor.id() + " said to be of " + document.id());
        }
        return donor;
    }

    /** The donors the documents show. */
    public static List<Donor> donors(List<DonorDocument> documents) {
        return documents.stream().map(DonorDocuments::donor).toList();
    }

    private static Object value(DonorField field, JsonValue value, String document) {
        try {
            return switch (field.kind()) {
                case ID -> ((JsonNumber) value).longValueExact();
                case TYPE -> DonorType.fromKey(((JsonString) value).getString()).orElseThrow();
                case TEXT, EMAIL, COUNTRY -> value == JsonValue.NULL ? null : ((JsonString) value).getString();
                case FLAG -> switch (value.getValueType()) {
                    case TRUE -> true;
                    case FALSE -> false;
                    default -> throw new ClassCastException(value.getValueType().toString());
                };
                case TIMESTAMP -> value == JsonValue.NULL ? null : instant(((JsonString) value).getString());
                case REFERENCE -> value == JsonValue.NULL ? null : ((JsonNumber) value).longValueExact();
                case CUSTOM -> custom((JsonObject) value);
                case CONSENT -> consent((JsonObject) value);
            };
        } catch (RuntimeException e) {
            throw new AssertionError(field.key() + " has no value of its kind in " + document, e);
        }
    }

    /** A {@code custom} object: each member in the one form CustomValues keeps (a number equal to its own form). */
    private static CustomValues custom(JsonObject object) {
        Map<String, Object> values = new java.util.LinkedHashMap<>();
        object.forEach((key, member) -> values.put(key, switch (member.getValueType()) {
            case STRING -> ((JsonString) member).getString();
            case NUMBER -> ((JsonNumber) member).bigDecimalValue();
            case TRUE -> true;
            case FALSE -> false;
            case ARRAY -> member.asJsonArray().getValuesAs(JsonString::getString);
            default -> throw new ClassCastException(member.getValueType().toString());
        }));
        return CustomValues.stored(values);
    }

    /** A {@code consent} object: each pair's status, its keys in order (as the API writes them). */
    private static ConsentState consent(JsonObject object) {
        Map<String, ConsentStatus> state = new java.util.LinkedHashMap<>();
        object.forEach((key, status) -> state.put(key,
                ConsentStatus.fromWire(((JsonString) status).getString()).orElseThrow()));
        if (!new ArrayList<>(state.keySet()).equals(state.keySet().stream().sorted().toList())) {
            throw new IllegalArgumentException("consent keys out of order: " + state.keySet());
        }
        return ConsentState.of(state);
    }

    /** Only the form Instant.toString writes: the API writes no other. */
    private static Instant instant(String text) {
        Instant instant = Instant.parse(text);
        if (!instant.toString().equals(text)) {
            throw new IllegalArgumentException(text + " is not written as " + instant);
        }
        return instant;
    }
}
