package org.donordata.adapters.http.donors;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import org.donordata.application.Actor;
import org.donordata.application.AuditRecord;

/** A donor's history as the API shows it (docs/api.md, "The trail"): the records' members, never a field's value. */
final class TrailJson {

    private TrailJson() {
    }

    static void records(JsonGenerator json, List<AuditRecord> records) throws IOException {
        json.writeStartArray();
        for (AuditRecord record : records) {
            json.writeStartObject();
            json.writeStringField("at", record.at().toString());
            json.writeStringField("action", record.action().wireName());
            json.writeArrayFieldStart("fields");
            for (String field : record.fields()) {
                json.writeString(field);
            }
            json.writeEndArray();
            json.writeFieldName("actor");
            actor(json, record.actor());
            json.writeFieldName("request_id");
            if (record.actor().requestId().isPresent()) {
                json.writeString(record.actor().requestId().get());
            } else {
                json.writeNull();
            }
            json.writeNumberField("version", record.version().orElseThrow());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /** Who made a change or recorded a consent: the object the trail's {@code actor} is. */
    static void actor(JsonGenerator json, Actor actor) throws IOException {
        json.writeStartObject();
        json.writeStringField("type", actor.type().wireName());
        if (actor.keyId().isPresent()) {
            json.writeNumberField("id", actor.keyId().get());
        }
        json.writeStringField("name", actor.name());
        json.writeEndObject();
    }
}
