package org.donordata.adapters.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorDocuments;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.junit.jupiter.api.Test;

/** A donor the store left to this adapter is written exactly as the reference document (application's tests). */
class DonorJsonTest {

    private static final DonorDetails ZOE = DonorChanges.from(Map.of("type", "organization",
            "organization_name", "Zoë \"Quoted\" \\ Trust 🌍", "email", "zoe@example.org", "email_opt_out", true,
            "notes", "Line one\r\nline two\ttabbed")).applyTo(DonorDetails.DEFAULTS);

    @Test
    void fieldsAreWrittenAsTheReferenceDocumentInEveryForm() throws Exception {
        List<Donor> donors = List.of(
                new Donor(1, ZOE, Instant.parse("2024-05-01T09:30:00Z"), Instant.parse("2024-05-01T09:30:00.120Z"), 2),
                new Donor(2, DonorDetails.DEFAULTS, Instant.parse("2024-05-01T09:30:00.000100Z"),
                        Instant.parse("2024-05-02T10:00:00.123456Z"), 3, Instant.parse("2024-05-02T10:00:00.123456Z")));

        JsonArray written = write(donors.stream().<DonorDocument>map(DonorDocument.Fields::new).toList());
        JsonArray reference = write(donors.stream().map(DonorDocuments::render).toList());

        assertEquals(reference, written);
        for (int i = 0; i < donors.size(); i++) {
            byte[] object = written.get(i).toString().getBytes(StandardCharsets.UTF_8);
            assertEquals(donors.get(i), DonorDocuments.donor(new DonorDocument.Json(donors.get(i).id(),
                    donors.get(i).version(), object)));
        }
    }

    private static JsonArray write(List<DonorDocument> documents) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(bytes)) {
            DonorJson.donors(json, documents);
        }
        return Json.createReader(new StringReader(bytes.toString(StandardCharsets.UTF_8))).readArray();
    }
}
