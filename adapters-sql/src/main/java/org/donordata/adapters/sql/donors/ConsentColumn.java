package org.donordata.adapters.sql.donors;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;

/**
 * A donor's current consent as the {@code consent} column of the donors table holds it (V20): the API's
 * {@code consent} object byte for byte (a database that writes the donor's JSON splices it in as it is); NULL for none.
 */
final class ConsentColumn {

    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    /**
     * The states read, by the column's text: donors share a few combinations of pairs and statuses, and parsing one
     * (JSON, then each pair's key checked) was a fifth of the service's processor time in a page of donors holding
     * three pairs each, read as columns (docs/performance.md, "Stored consent read once"). A state is immutable.
     */
    private static final Cache<String, ConsentState> READ = Caffeine.newBuilder().maximumSize(4_096).build();

    private ConsentColumn() {
    }

    /**
     * The column's value: the JSON object, or null for none. Written by hand: its keys (CHANNEL:PURPOSE) and values
     * (a status) are lower-case letters, digits, '_' and ':', which JSON takes as they are.
     */
    static String text(ConsentState state) {
        if (state.isEmpty()) {
            return null;
        }
        StringBuilder json = new StringBuilder("{");
        state.byKey().forEach((key, status) -> json.append(json.length() > 1 ? ",\"" : "\"").append(key)
                .append("\":\"").append(status.wireName()).append('"'));
        return json.append('}').toString();
    }

    /** The state a column holds: none for NULL. */
    static ConsentState read(String text) {
        if (text == null) {
            return ConsentState.NONE;
        }
        return READ.get(text, ConsentColumn::parse);
    }

    private static ConsentState parse(String text) {
        JsonObject object;
        try (JsonReader reader = READERS.createReader(new StringReader(text))) {
            object = reader.readObject();
        }
        Map<String, ConsentStatus> state = new LinkedHashMap<>();
        object.forEach((key, status) -> state.put(key, ConsentStatus.fromWire(((JsonString) status).getString())
                .orElseThrow(() -> new IllegalStateException("a stored consent." + key + " is " + status))));
        return ConsentState.of(state);
    }
}
