package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class DonorFingerprintTest {

    private static final DonorDetails EVERY_FIELD = created(Map.ofEntries(
            Map.entry("type", "individual"), Map.entry("first_name", "Zoë"), Map.entry("last_name", "山田"),
            Map.entry("organization_name", "Trust 🌍"), Map.entry("email", "zoe@example.org"),
            Map.entry("phone", "+44 20 7946 0958"), Map.entry("address_line1", "1 Main St"),
            Map.entry("address_line2", "Flat 2"), Map.entry("city", "Zürich"), Map.entry("region", "ZH"),
            Map.entry("postal_code", "8001"), Map.entry("country", "CH"), Map.entry("external_id", "crm-1"),
            Map.entry("email_opt_out", false), Map.entry("do_not_contact", true), Map.entry("notes", "a\nb")));

    private static DonorDetails created(Map<String, ?> document) {
        return DonorChanges.from(document).applyToNew(List::of);
    }

    @Test
    void theSameDonorAsValidationSeesItGivesTheSameFingerprint() {
        DonorDetails sent = created(Map.of("first_name", "  Ada ", "last_name", "Lovelace\t", "city", "   "));
        DonorDetails resent = created(Map.of("type", "individual", "first_name", "Ada", "last_name", "Lovelace",
                "email_opt_out", false, "do_not_contact", false));

        assertEquals(DonorFingerprint.of(sent), DonorFingerprint.of(resent));
    }

    @Test
    void changingAnyWritableFieldChangesTheFingerprint() {
        Set<DonorFingerprint> seen = new HashSet<>(List.of(DonorFingerprint.of(EVERY_FIELD)));
        List<DonorField> writable = Arrays.stream(DonorField.values()).filter(DonorField::writable).toList();
        for (DonorField field : writable) {
            DonorDetails changed = DonorChanges.from(Map.of(field.key(), otherValue(field)))
                    .applyTo(EVERY_FIELD, () -> TIER);

            assertNotEquals(EVERY_FIELD.get(field), changed.get(field), field.key());
            assertTrue(seen.add(DonorFingerprint.of(changed)), field.key());
        }
        assertEquals(writable.size() + 1, seen.size());
    }

    @Test
    void clearingAnOptionalFieldChangesTheFingerprint() {
        DonorDetails cleared = DonorChanges.from(Collections.singletonMap("notes", null)).applyTo(EVERY_FIELD, List::of);

        assertNotEquals(DonorFingerprint.of(EVERY_FIELD), DonorFingerprint.of(cleared));
    }

    @Test
    void valuesCannotRunIntoEachOtherOrChangePlaces() {
        assertNotEquals(DonorFingerprint.of(created(Map.of("first_name", "Ab", "last_name", "c"))),
                DonorFingerprint.of(created(Map.of("first_name", "A", "last_name", "bc"))));
        DonorDetails ada = created(Map.of("first_name", "Ada", "last_name", "Lovelace"));
        assertNotEquals(DonorFingerprint.of(DonorChanges.from(Map.of("city", "Ely")).applyTo(ada, List::of)),
                DonorFingerprint.of(DonorChanges.from(Map.of("region", "Ely")).applyTo(ada, List::of)));
        assertNotEquals(DonorFingerprint.of(DonorChanges.from(Map.of("city", "null")).applyTo(ada, List::of)),
                DonorFingerprint.of(ada));
    }

    /**
     * Stored keys carry fingerprints for a day, across deployments: a change of the encoding would turn every
     * retry in flight into a rejected reuse. Change this value only together with the encoding's name. (Checked
     * against an independent implementation of the encoding documented on DonorFingerprint.of.)
     */
    @Test
    void theEncodingIsStableAcrossReleases() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("first_name", "Ada");
        document.put("last_name", "Lovelace");
        document.put("email", "ada@example.org");

        assertEquals("f5499cee43f4f0564eb9f50f7ad1dc2531a45aa63c35ed8e5b27326fb4c3e593",
                DonorFingerprint.of(created(document)).hex());
    }

    @Test
    void aFingerprintIsASha256InHex() {
        assertThrows(IllegalArgumentException.class, () -> new DonorFingerprint("ABC"));
        assertThrows(IllegalArgumentException.class, () -> new DonorFingerprint("0".repeat(63) + "G"));
        assertEquals(64, DonorFingerprint.of(DonorDetails.DEFAULTS).hex().length());
    }

    private static final List<CustomField> TIER = List.of(new CustomField(1, "tier", "Tier", CustomFieldType.TEXT,
            List.of(), false, null, false, Instant.EPOCH, Instant.EPOCH));

    private static Object otherValue(DonorField field) {
        return switch (field.kind()) {
            case TYPE -> "organization";
            case FLAG -> !(Boolean) EVERY_FIELD.get(field);
            case EMAIL -> "other@example.org";
            case COUNTRY -> "FR";
            case TEXT -> EVERY_FIELD.get(field) + "!";
            case CUSTOM -> Map.of("tier", "gold");
            case ID, TIMESTAMP, REFERENCE, CONSENT -> throw new IllegalArgumentException(field.key());
        };
    }
}
