package org.donordata.application.fields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldChanges;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.DonorChanges;
import org.junit.jupiter.api.Test;

class CustomFieldServiceTest {

    private static final ApplicationId OWNER = new ApplicationId(1);
    private static final Actor ADMIN = Actor.command("test");

    /**
     * A modify is stored only over the version it read, told apart by updated_at: a clock that stands still (or a
     * node's that runs behind) must not give two versions one time, or a concurrent modify would overwrite unseen.
     */
    @Test
    void everyModifyGivesTheFieldALaterTimeEvenWhenTheClockStandsStill() {
        InMemoryDonorRepository donors = new InMemoryDonorRepository();
        InMemoryCustomFieldRepository store = new InMemoryCustomFieldRepository(donors);
        CustomFieldService service = new CustomFieldService(store, donors,
                Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC));
        CustomField created = service.create(OWNER,
                CustomFieldChanges.forCreate(Map.of("key", "chapter", "label", "Chapter", "type", "text")), ADMIN);

        CustomField first = service.modify(OWNER, created.id(),
                CustomFieldChanges.forModify(Map.of("label", "Local chapter")), ADMIN);
        CustomField second = service.modify(OWNER, created.id(),
                CustomFieldChanges.forModify(Map.of("label", "Branch")), ADMIN);

        assertTrue(first.updatedAt().isAfter(created.updatedAt()), first.updatedAt() + " after " + created.updatedAt());
        assertTrue(second.updatedAt().isAfter(first.updatedAt()));
        assertFalse(store.update(OWNER, new CustomField(created.id(), "chapter", "Stale", created.type(),
                created.choices(), false, null, false, created.createdAt(), second.updatedAt().plusSeconds(1)),
                first.updatedAt(), List.of(), ADMIN), "an update made from the first version is refused");
        assertEquals("Branch", service.get(OWNER, created.id()).label());
    }

    /**
     * Each donor's choices are stored and shown in the field's order: a field of type choices may take new choices
     * anywhere, but the ones it keeps move only while no donor holds them. A field of type choice holds one, in no
     * order: its choices move freely.
     */
    @Test
    void theChoicesDonorsHoldKeepTheirOrderAndNewOnesGoAnywhere() {
        InMemoryDonorRepository donors = new InMemoryDonorRepository();
        InMemoryCustomFieldRepository store = new InMemoryCustomFieldRepository(donors);
        CustomFieldService service = new CustomFieldService(store, donors, Clock.systemUTC());
        CustomField tags = service.create(OWNER, CustomFieldChanges.forCreate(Map.of("key", "tags", "label", "Tags",
                "type", "choices", "choices", List.of("b", "a", "d"))), ADMIN);
        CustomField size = service.create(OWNER, CustomFieldChanges.forCreate(Map.of("key", "size", "label", "Size",
                "type", "choice", "choices", List.of("S", "M", "L"))), ADMIN);
        new DonorService(donors, Clock.systemUTC()).create(OWNER, ADMIN, DonorChanges.from(Map.of("first_name", "Ada",
                "last_name", "L", "custom", Map.of("tags", List.of("b", "a"), "size", "M"))), Optional.empty());

        CustomFieldConflictException refused = assertThrows(CustomFieldConflictException.class, () -> service.modify(
                OWNER, tags.id(), CustomFieldChanges.forModify(Map.of("choices", List.of("d", "a", "b"))), ADMIN));
        assertTrue(refused.getMessage().contains("'b'") && refused.getMessage().contains("moved"),
                refused.getMessage());
        assertEquals(List.of("b", "a", "d"), service.get(OWNER, tags.id()).choices(), "nothing stored");
        assertEquals(List.of("c", "b", "a", "e", "d"), service.modify(OWNER, tags.id(),
                CustomFieldChanges.forModify(Map.of("choices", List.of("c", "b", "a", "e", "d"))), ADMIN).choices());
        assertEquals(List.of("L", "M", "S"), service.modify(OWNER, size.id(),
                CustomFieldChanges.forModify(Map.of("choices", List.of("L", "M", "S"))), ADMIN).choices());
    }

    /** A removal rewrites every holder: the store is told so (DonorRepository.writeAlone), not handed a common write. */
    @Test
    void aRemovalRunsAsAWriteOfItsOwn() {
        InMemoryDonorRepository donors = spy(new InMemoryDonorRepository());
        InMemoryCustomFieldRepository store = new InMemoryCustomFieldRepository(donors);
        CustomFieldService service = new CustomFieldService(store, donors, Clock.systemUTC());
        CustomField created = service.create(OWNER,
                CustomFieldChanges.forCreate(Map.of("key", "chapter", "label", "Chapter", "type", "text")), ADMIN);

        service.remove(OWNER, created.id(), ADMIN);

        verify(donors).writeAlone(eq(OWNER),
                any(), any());
        assertTrue(store.all(OWNER).isEmpty());
    }
}
