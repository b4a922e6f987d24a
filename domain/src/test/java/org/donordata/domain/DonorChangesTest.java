package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class DonorChangesTest {

    private static Map<String, Object> doc(Object... keysAndValues) {
        Map<String, Object> document = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            document.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return document;
    }

    private static DonorDetails create(Map<String, Object> document) {
        return DonorChanges.from(document).applyToNew(List::of);
    }

    private static List<String> problemsOf(Map<String, Object> document, DonorDetails base) {
        InvalidInputException rejected = assertThrows(InvalidInputException.class,
                () -> DonorChanges.from(document).applyTo(base, List::of));
        return rejected.problems().stream().map(Problem::subject).toList();
    }

    private static final DonorDetails ADA = create(doc("first_name", "Ada", "last_name", "Lovelace"));

    @Test
    void detailsDifferInTheFieldsWhoseValueChangedOnly() {
        DonorDetails moved = DonorChanges.from(doc("city", "Oslo")).applyTo(ADA, List::of);

        assertTrue(ADA.differsIn(List.of(DonorField.EMAIL, DonorField.CITY), moved));
        assertFalse(ADA.differsIn(List.of(DonorField.EMAIL, DonorField.FIRST_NAME), moved));
        assertEquals(List.of("city"), ADA.changedFields(moved));
    }

    @Test
    void createStartsFromDefaultsAndTrimsText() {
        DonorDetails donor = create(doc("first_name", "  Ada ", "last_name", "Lovelace", "city", "   "));

        assertEquals(DonorType.INDIVIDUAL, donor.type());
        assertEquals("Ada", donor.text(DonorField.FIRST_NAME));
        assertNull(donor.text(DonorField.CITY), "a blank optional string is stored as unset");
        assertFalse(donor.flag(DonorField.EMAIL_OPT_OUT));
        assertFalse(donor.flag(DonorField.DO_NOT_CONTACT));
    }

    /** Unicode white space, no-break spaces too (web forms put them around names), is trimmed, and no address holds it. */
    @Test
    void noBreakSpacesAreTrimmedAndNoEmailHoldsOne() {
        DonorDetails donor = create(doc("first_name", "\u00a0Ada\u2007", "last_name", "Lovelace\u202f",
                "email", "\u00a0ada@example.org\u3000"));

        assertEquals("Ada", donor.text(DonorField.FIRST_NAME));
        assertEquals("Lovelace", donor.text(DonorField.LAST_NAME));
        assertEquals("ada@example.org", donor.text(DonorField.EMAIL));
        assertEquals(List.of("email"), problemsOf(doc("first_name", "A", "last_name", "B", "email",
                "a\u2007b@example.org"), DonorDetails.DEFAULTS));
    }

    @Test
    void individualNeedsBothNamesAndOrganizationNeedsItsName() {
        assertEquals(List.of("first_name", "last_name"), problemsOf(doc(), DonorDetails.DEFAULTS));
        assertEquals(List.of("organization_name"),
                problemsOf(doc("type", "organization", "organization_name", " "), DonorDetails.DEFAULTS));

        DonorDetails charity = create(doc("type", "organization", "organization_name", "Oxfam"));
        assertEquals(DonorType.ORGANIZATION, charity.type());
        assertNull(charity.text(DonorField.FIRST_NAME));
    }

    @Test
    void everyBadFieldIsReportedAtOnce() {
        Map<String, Object> bad = doc(
                "id", 5,
                "first_name", new BigDecimal("3"),
                "email", "not-an-email",
                "phone", "1".repeat(41),
                "country", "gb",
                "email_opt_out", "yes",
                "type", "robot",
                "favourite_colour", "blue",
                "created_at", "2020-01-01T00:00:00Z");

        InvalidInputException rejected = assertThrows(InvalidInputException.class,
                () -> DonorChanges.from(bad).applyToNew(List::of));

        assertEquals(List.of("id", "first_name", "email", "phone", "country", "email_opt_out", "type",
                "'favourite_colour'", "created_at", "last_name"),
                rejected.problems().stream().map(Problem::subject).toList());
        assertTrue(rejected.getMessage().contains("phone must be at most 40 characters"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("'favourite_colour' is not a donor field"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("id is read-only"), rejected.getMessage());
    }

    @Test
    void aBadlySentRequiredNameIsNotAlsoReportedAsMissing() {
        assertEquals(List.of("first_name", "last_name"),
                problemsOf(doc("first_name", List.of("Ada")), DonorDetails.DEFAULTS));
    }

    @Test
    void lengthsCountCharactersNotUtf16Units() {
        String twoHundredEmoji = "😀".repeat(200);
        assertEquals(twoHundredEmoji, create(doc("first_name", twoHundredEmoji, "last_name", "X")).text(DonorField.FIRST_NAME));
        assertEquals(List.of("first_name"),
                problemsOf(doc("first_name", twoHundredEmoji + "😀", "last_name", "X"), DonorDetails.DEFAULTS));
    }

    @Test
    void limitsMatchTheContract() {
        assertEquals("x".repeat(10_000), create(doc("first_name", "A", "last_name", "B", "notes", "x".repeat(10_000))).text(DonorField.NOTES));
        assertEquals(List.of("notes"), problemsOf(doc("notes", "x".repeat(10_001)), ADA));
        assertEquals(List.of("external_id"), problemsOf(doc("external_id", "x".repeat(101)), ADA));
        assertEquals(List.of("last_name"), problemsOf(doc("last_name", "x".repeat(201)), ADA));
    }

    @Test
    void controlCharactersAndBrokenUnicodeAreRefused() {
        assertEquals(List.of("notes", "city"), problemsOf(doc("notes", "a\u0000b", "city", "\uD800x"), ADA));
        assertEquals("line one\nline two", DonorChanges.from(doc("notes", "line one\nline two")).applyTo(ADA, List::of).text(DonorField.NOTES));
    }

    @Test
    void emailsAndCountriesAreChecked() {
        for (String good : List.of("ada@example.org", "Ada.Lovelace+gifts@mail.example.co.uk", "josé@bücher.de")) {
            assertEquals(good, DonorChanges.from(doc("email", good)).applyTo(ADA, List::of).text(DonorField.EMAIL), good);
        }
        for (String bad : List.of("ada", "ada@", "@example.org", "ada@example", "a da@example.org", "ada@@example.org",
                "ada@-example.org", "ada@example..org")) {
            assertEquals(List.of("email"), problemsOf(doc("email", bad), ADA), bad);
        }
        assertEquals("GB", DonorChanges.from(doc("country", "GB")).applyTo(ADA, List::of).text(DonorField.COUNTRY));
        for (String bad : List.of("gb", "GBR", "XX", "U")) {
            assertEquals(List.of("country"), problemsOf(doc("country", bad), ADA), bad);
        }
    }

    @Test
    void modifyKeepsFieldsNotSentAndNullClearsOptionalOnes() {
        DonorDetails before = DonorChanges.from(doc("phone", "+44 20 7946 0000", "city", "London")).applyTo(ADA, List::of);

        DonorDetails after = DonorChanges.from(doc("phone", null, "email_opt_out", true)).applyTo(before, List::of);

        assertNull(after.text(DonorField.PHONE));
        assertEquals("London", after.text(DonorField.CITY));
        assertEquals("Ada", after.text(DonorField.FIRST_NAME));
        assertTrue(after.flag(DonorField.EMAIL_OPT_OUT));
    }

    @Test
    void modifyMustLeaveAValidDonor() {
        assertEquals(List.of("last_name"), problemsOf(doc("last_name", null), ADA));
        assertEquals(List.of("organization_name"), problemsOf(doc("type", "organization"), ADA));
        assertEquals(List.of("email_opt_out"), problemsOf(doc("email_opt_out", null), ADA));
    }

    @Test
    void unknownFieldNamesAreQuotedSafelyAndShortened() {
        Map<String, Object> document = new HashMap<>();
        document.put("x".repeat(500) + "\u0007", "v");

        String message = assertThrows(InvalidInputException.class,
                () -> DonorChanges.from(document).applyTo(ADA, List::of)).getMessage();

        assertFalse(message.contains("\u0007"));
        assertTrue(message.length() < 200, message);
    }

    @Test
    void aFloodOfProblemsGivesABoundedMessage() {
        Map<String, Object> document = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            document.put("unknown" + i, i);
        }

        InvalidInputException rejected = assertThrows(InvalidInputException.class,
                () -> DonorChanges.from(document).applyTo(ADA, List::of));

        assertEquals(1000, rejected.problems().size());
        assertTrue(rejected.getMessage().endsWith("and 980 more problems."), rejected.getMessage());
    }
}
