package org.donordata.adapters.sql.donors;

import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.donordata.domain.CustomValues;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;

/**
 * A donor's custom values as the {@code custom} column of the donors table holds them (V19): one JSON object, keyed
 * by field key in the order of the fields' ids, each value as the API shows it; NULL when the donor holds none. The
 * object is the API's {@code custom} member byte for byte, so a database that writes the donor's JSON (SQLite) splices
 * it in as it is.
 */
public final class CustomColumn {

    // Made once: Json.createGenerator and Json.createReader look the provider up at every call, which cost a write
    // more than the rest of its custom values' work.
    private static final JsonGeneratorFactory GENERATORS = Json.createGeneratorFactory(Map.of());
    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    private CustomColumn() {
    }

    /** The column's value for these values: their JSON object, or null for none. */
    public static String text(CustomValues values) {
        if (values.isEmpty()) {
            return null;
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator json = GENERATORS.createGenerator(text)) {
            json.writeStartObject();
            values.writeTo(members(json));
            json.writeEnd();
        }
        return text.toString();
    }

    /** Writes each value as a member of the JSON object the generator is in. */
    private static CustomValues.Writer members(JsonGenerator json) {
        return new CustomValues.Writer() {
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
        };
    }

    /** The values a column holds: none for NULL. */
    public static CustomValues read(String text) {
        if (text == null) {
            return CustomValues.NONE;
        }
        JsonObject object;
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            object = reader.readObject();
        }
        Map<String, Object> values = new LinkedHashMap<>();
        object.forEach((key, value) -> values.put(key, plain(key, value)));
        return CustomValues.stored(values);
    }

    private static Object plain(String key, JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> CustomValues.number(((JsonNumber) value).bigDecimalValue());
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case ARRAY -> ((JsonArray) value).getValuesAs(JsonString::getString);
            case OBJECT, NULL -> throw new IllegalStateException("a stored custom." + key + " holds " + value);
        };
    }
}
