package org.donordata.adapters.http;

import java.time.Instant;
import java.util.List;

import jakarta.json.stream.JsonGenerator;
import org.donordata.application.Application;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;

/** Writes donors as clients see them: every field, in field order, under its snake_case key. */
final class DonorJson {

    static final String SERVICE_NAME = "Donor Data Service";
    static final int API_VERSION = 1;
    // Once: values() copies the array on every call, and this runs for every donor written.
    private static final DonorField[] FIELDS = DonorField.values();

    private DonorJson() {
    }

    static void donors(JsonGenerator json, List<Donor> donors) {
        json.writeStartArray();
        donors.forEach(donor -> donor(json, donor));
        json.writeEnd();
    }

    /** What {@code GET /api/v1} answers: the service and the application calling it. */
    static void service(JsonGenerator json, Application caller) {
        json.writeStartArray()
                .writeStartObject()
                .write("service", SERVICE_NAME)
                .write("api_version", API_VERSION)
                .writeStartObject("application")
                .write("id", caller.id().value())
                .write("name", caller.name())
                .writeEnd()
                .writeEnd()
                .writeEnd();
    }

    private static void donor(JsonGenerator json, Donor donor) {
        json.writeStartObject();
        for (DonorField field : FIELDS) {
            value(json, field.key(), donor.get(field));
        }
        json.writeEnd();
    }

    private static void value(JsonGenerator json, String key, Object value) {
        switch (value) {
            case null -> json.writeNull(key);
            case String text -> json.write(key, text);
            case Boolean flag -> json.write(key, flag);
            case Long number -> json.write(key, number);
            case DonorType type -> json.write(key, type.key());
            case Instant instant -> json.write(key, instant.toString());
            default -> throw new IllegalStateException("no JSON form for a " + value.getClass().getSimpleName());
        }
    }
}
