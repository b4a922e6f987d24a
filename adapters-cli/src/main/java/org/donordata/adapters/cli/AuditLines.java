package org.donordata.adapters.cli;

import java.io.StringWriter;
import java.util.Map;

import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import org.donordata.application.Actor;
import org.donordata.application.AuditRecord;

/** One record of the trail as a line of {@code audit}'s NDJSON (docs/api.md, "The trail"): names, never values. */
final class AuditLines {

    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());

    private AuditLines() {
    }

    static String line(AuditRecord record) {
        StringWriter line = new StringWriter(200);
        try (JsonGenerator json = JSON.createGenerator(line)) {
            json.writeStartObject();
            json.write("at", record.at().toString());
            json.write("action", record.action().wireName());
            if (record.donorId().isPresent()) {
                json.write("donor_id", record.donorId().get());
                json.writeStartArray("fields");
                record.fields().forEach(json::write);
                json.writeEnd();
                json.write("version", record.version().orElseThrow());
            } else {
                json.writeNull("donor_id");
            }
            record.key().ifPresent(key -> json.writeStartObject("key").write("id", key.id())
                    .write("name", key.name()).writeEnd());
            record.field().ifPresent(field -> json.writeStartObject("field").write("id", field.id())
                    .write("key", field.key()).writeEnd());
            Actor actor = record.actor();
            json.writeStartObject("actor").write("type", actor.type().wireName());
            actor.keyId().ifPresent(id -> json.write("id", id));
            json.write("name", actor.name()).writeEnd();
            if (actor.requestId().isPresent()) {
                json.write("request_id", actor.requestId().get());
            } else {
                json.writeNull("request_id");
            }
            json.writeEnd();
        }
        return line.toString();
    }
}
