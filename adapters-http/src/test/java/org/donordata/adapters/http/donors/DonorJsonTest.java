package org.donordata.adapters.http.donors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorDocuments;
import org.donordata.application.Duplicate;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DuplicateKeys.Reason;
import org.junit.jupiter.api.Test;

/** A donor the store left to this adapter is written exactly as the reference document (application's tests). */
class DonorJsonTest {

    private static final DonorDetails ZOE = DonorChanges.from(Map.of("type", "organization",
            "organization_name", "Zoë \"Quoted\" \\ Trust 🌍", "email", "zoe@example.org", "email_opt_out", true,
            "notes", "Line one\r\nline two\ttabbed")).applyToNew(List::of);

    @Test
    void storedObjectsAreCopiedAsTheyAre() throws Exception {
        List<Donor> donors = List.of(
                new Donor(1, ZOE, Instant.parse("2024-05-01T09:30:00Z"), Instant.parse("2024-05-01T09:30:00.120Z"), 2),
                new Donor(2, DonorDetails.DEFAULTS, Instant.parse("2024-05-01T09:30:00.000100Z"),
                        Instant.parse("2024-05-02T10:00:00.123456Z"), 3, Instant.parse("2024-05-02T10:00:00.123456Z")));

        List<DonorDocument> stored = donors.stream().map(DonorDocuments::render).toList();
        JsonArray written = write(stored);

        for (int i = 0; i < donors.size(); i++) {
            assertEquals(Json.createReader(new StringReader(new String(((DonorDocument.Json) stored.get(i)).utf8(),
                    StandardCharsets.UTF_8))).readObject(), written.get(i));
        }
        for (int i = 0; i < donors.size(); i++) {
            byte[] object = written.get(i).toString().getBytes(StandardCharsets.UTF_8);
            assertEquals(donors.get(i), DonorDocuments.donor(new DonorDocument.Json(donors.get(i).id(),
                    donors.get(i).version(), object)));
        }
    }

    @Test
    void duplicatesHaveMatchedLast() throws Exception {
        Donor zoe = new Donor(7, ZOE, Instant.parse("2024-05-01T09:30:00Z"), Instant.parse("2024-05-01T09:30:00Z"), 1);
        List<Reason> matched = List.of(Reason.EMAIL, Reason.NAME_AND_POSTAL_CODE);

        JsonArray written = write(json -> DonorJson.duplicates(json, List.of(
                new Duplicate(DonorDocuments.render(zoe), matched), new Duplicate(DonorDocuments.render(zoe), matched),
                new Duplicate(DonorDocuments.render(zoe), List.of()))));

        assertEquals(written.get(0), written.get(1));
        JsonObject first = written.getJsonObject(0);
        assertEquals(List.of("email", "name_and_postal_code"),
                first.getJsonArray("matched").getValuesAs(JsonString::getString));
        assertEquals("matched", List.copyOf(first.keySet()).getLast());
        assertEquals("matched", List.copyOf(written.getJsonObject(1).keySet()).getLast(), "the stored object's too");
        assertEquals(0, written.getJsonObject(2).getJsonArray("matched").size());
    }

    private static JsonArray write(List<DonorDocument> documents) throws Exception {
        return write(json -> DonorJson.donors(json, documents));
    }

    private interface Writing {
        void to(JsonGenerator json) throws IOException;
    }

    private static JsonArray write(Writing writing) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(bytes)) {
            writing.to(json);
        }
        return Json.createReader(new StringReader(bytes.toString(StandardCharsets.UTF_8))).readArray();
    }
}
