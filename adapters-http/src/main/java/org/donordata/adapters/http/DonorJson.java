package org.donordata.adapters.http;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import org.donordata.application.Application;
import org.donordata.application.DonorDocument;

/** Writes donors as clients see them, and what the API says about itself. */
final class DonorJson {

    static final String SERVICE_NAME = "Donor Data Service";
    static final int API_VERSION = 1;

    private DonorJson() {
    }

    /**
     * The donors as the store rendered them (DonorDocument), each written as it is: the bytes are already the JSON
     * object the contract describes, so they are copied, never read or encoded again.
     */
    static void donors(JsonGenerator json, List<DonorDocument> donors) throws IOException {
        json.writeStartArray();
        for (DonorDocument donor : donors) {
            json.writeRawValue(new Utf8Json(donor.json()));
        }
        json.writeEndArray();
    }

    /** What {@code GET /api/v1} answers: the service and the application calling it. */
    static void service(JsonGenerator json, Application caller) throws IOException {
        json.writeStartArray();
        json.writeStartObject();
        json.writeStringField("service", SERVICE_NAME);
        json.writeNumberField("api_version", API_VERSION);
        json.writeObjectFieldStart("application");
        json.writeNumberField("id", caller.id().value());
        json.writeStringField("name", caller.name());
        json.writeEndObject();
        json.writeEndObject();
        json.writeEndArray();
    }
}
