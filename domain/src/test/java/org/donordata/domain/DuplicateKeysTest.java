package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.donordata.domain.DuplicateKeys.Reason;
import org.junit.jupiter.api.Test;

class DuplicateKeysTest {

    private static DonorDetails donor(Object... keysAndValues) {
        Map<String, Object> document = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            document.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return DonorChanges.from(document).applyToNew(List::of);
    }

    /** What a store answers: the keys both have, then what they stand for. */
    private static List<Reason> reasons(DonorDetails one, DonorDetails other) {
        Set<String> shared = new HashSet<>(DuplicateKeys.of(one));
        shared.retainAll(DuplicateKeys.of(other));
        return DuplicateKeys.reasons(shared);
    }

    @Test
    void eachReasonComparesItsNormalizedValue() {
        DonorDetails ada = donor("first_name", "Ada", "last_name", "Lovelace", "email", "Ada@Example.ORG",
                "phone", "+44 20 7946 0018", "postal_code", "SW1A 1AA");

        assertEquals(List.of(Reason.EMAIL, Reason.PHONE, Reason.NAME_AND_POSTAL_CODE), reasons(ada,
                donor("first_name", "ÁDA", "last_name", "lövelace", "email", "ada@example.org",
                        "phone", "(44) 2079-460018", "postal_code", "sw1a\u00a01aa")));
        assertEquals(List.of(Reason.PHONE), reasons(ada, donor("first_name", "X", "last_name", "Y",
                "phone", "٤٤٢٠٧٩٤٦٠٠١٨")), "Arabic-Indic digits are digits");
        assertEquals(List.of(), reasons(ada, donor("first_name", "Ada", "last_name", "Love-lace",
                "postal_code", "SW1A 1AA")), "two words are not one");
        assertEquals(List.of(), reasons(ada, donor("first_name", "Ada", "last_name", "Lovelace",
                "postal_code", "SW1A 1AB")));
        assertEquals(List.of(), reasons(ada, donor("type", "organization", "organization_name",
                "Ada Lovelace", "postal_code", "SW1A 1AA")), "an individual is not an organization");
    }

    @Test
    void aPhoneNeedsSevenDigitsAndANameAPostalCode() {
        DonorDetails shortPhone = donor("first_name", "A", "last_name", "B", "phone", "ext. 123456");
        DonorDetails noPostalCode = donor("first_name", "A", "last_name", "B", "postal_code", "  ");

        assertEquals(List.of(), reasons(shortPhone, shortPhone));
        assertEquals(List.of(), reasons(noPostalCode, noPostalCode));
        assertEquals(List.of(Reason.PHONE), reasons(donor("first_name", "A", "last_name", "B",
                "phone", "1234567"), donor("first_name", "C", "last_name", "D", "phone", "123-4567")));
        assertTrue(DuplicateKeys.of(DonorDetails.DEFAULTS).isEmpty(), "an erased donor has no keys");
    }

    @Test
    void keysAreOneShortSizeBeginOutsideEverySearchWordAndDifferByReasonAndValue() {
        DonorDetails ada = donor("first_name", "Ada", "last_name", "Lovelace", "email", "ada@example.org",
                "phone", "0123456789", "postal_code", "N1");
        DonorDetails same = donor("first_name", "ADA", "last_name", "LOVELACE", "email", "ADA@EXAMPLE.ORG",
                "phone", "012 345 6789", "postal_code", "n 1");

        assertEquals(3, DuplicateKeys.of(ada).size());
        assertEquals(DuplicateKeys.of(ada), DuplicateKeys.of(same));
        for (String key : DuplicateKeys.of(ada)) {
            assertEquals(22, key.length(), key);
            assertEquals(DuplicateKeys.PREFIX, key.charAt(0));
            assertTrue(SearchWords.of(key).stream().noneMatch(word -> key.startsWith(word)), key);
        }
        assertNotEquals(DuplicateKeys.of(ada), DuplicateKeys.of(donor("first_name", "Ada", "last_name", "Lovelace",
                "email", "ada@example.com", "phone", "0123456780", "postal_code", "N2")));
        for (String notAKey : List.of("", "~", "~x0123", "ada", "e~")) {
            assertThrows(IllegalArgumentException.class, () -> DuplicateKeys.reasons(Set.of(notAKey)), notAKey);
        }
    }

    @Test
    void aMergeFillsOnlyTheGapsAndSetsEitherFlag() {
        DonorDetails survivor = donor("first_name", "Ada", "last_name", "Lovelace", "phone", "1", "do_not_contact",
                true);
        DonorDetails duplicate = donor("first_name", "Augusta", "last_name", "Byron", "phone", "2", "city", "London",
                "email_opt_out", true);

        assertEquals(donor("first_name", "Ada", "last_name", "Lovelace", "phone", "1", "city", "London",
                "email_opt_out", true, "do_not_contact", true), survivor.filledFrom(duplicate, List.of()));
        assertEquals(DonorType.ORGANIZATION, donor("type", "organization", "organization_name", "T")
                .filledFrom(survivor, List.of()).type(), "the survivor's type");
    }
}
