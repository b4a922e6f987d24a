package org.donordata.adapters.http.fields;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;

import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.donordata.domain.CustomField;

/** Custom field definitions as the API reads and writes them (docs/api.md, "Custom fields"). */
final class FieldJson {

    private FieldJson() {
    }

    /**
     * A body as the domain reads it: an array of choices as a list, its strings as String (anything else stays a JSON
     * value, which the domain reports as the wrong type).
     */
    static Map<String, Object> body(Map<String, Object> members) {
        Map<String, Object> body = new LinkedHashMap<>(members);
        if (members.get("choices") instanceof JsonArray array) {
            List<Object> choices = new ArrayList<>();
            for (JsonValue choice : array) {
                choices.add(choice instanceof JsonString text ? text.getString() : choice);
            }
            body.put("choices", choices);
        }
        return body;
    }

    static void fields(JsonGenerator json, List<CustomField> fields) throws IOException {
        json.writeStartArray();
        for (CustomField field : fields) {
            field(json, field);
        }
        json.writeEndArray();
    }

    private static void field(JsonGenerator json, CustomField field) throws IOException {
        json.writeStartObject();
        json.writeNumberField("id", field.id());
        json.writeStringField("key", field.key());
        json.writeStringField("label", field.label());
        json.writeStringField("type", field.type().wireName());
        if (field.type().hasChoices()) {
            json.writeArrayFieldStart("choices");
            for (String choice : field.choices()) {
                json.writeString(choice);
            }
            json.writeEndArray();
        } else {
            json.writeNullField("choices");
        }
        json.writeBooleanField("required", field.required());
        json.writeStringField("description", field.description());
        json.writeStringField("state", field.state());
        json.writeStringField("created_at", field.createdAt().toString());
        json.writeStringField("updated_at", field.updatedAt().toString());
        json.writeEndObject();
    }
}
