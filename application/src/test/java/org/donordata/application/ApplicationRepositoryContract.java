package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ApplicationRepository} does, whatever stores the applications: a new adapter extends this class,
 * says how to open a fresh store, and gets the whole behaviour suite. Subclasses: the in-memory repository here,
 * SQLite and PostgreSQL in adapters-sql.
 */
public abstract class ApplicationRepositoryContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.654321Z");
    static final KeyHash FIRST_KEY = KeyHash.of("first key");
    static final KeyHash SECOND_KEY = KeyHash.of("second key");

    protected ApplicationRepository applications;

    /** A fresh, empty store: its application repository. Called before each test; the subclass closes it after. */
    protected abstract ApplicationRepository openEmptyStore();

    @BeforeEach
    void openStore() {
        applications = openEmptyStore();
    }

    @Test
    void createdApplicationIsListedAndFoundByNameAndKey() {
        Application created = applications.create("Förderverein 🎻", FIRST_KEY, CREATED);

        assertEquals(new Application(created.id(), "Förderverein 🎻", CREATED, true), created);
        assertEquals(List.of(created), applications.list());
        assertEquals(Optional.of(created), applications.findByName("Förderverein 🎻"));
        assertEquals(Optional.of(created), applications.findByKeyHash(FIRST_KEY));
    }

    @Test
    void listIsOldestFirst() {
        Application first = applications.create("b", FIRST_KEY, CREATED);
        Application second = applications.create("a", SECOND_KEY, CREATED.plusSeconds(1));

        assertTrue(first.id().value() < second.id().value());
        assertEquals(List.of(first, second), applications.list());
    }

    @Test
    void unknownNameAndKeyAreNotFound() {
        applications.create("known", FIRST_KEY, CREATED);

        assertEquals(Optional.empty(), applications.findByName("unknown"));
        assertEquals(Optional.empty(), applications.findByName("KNOWN"));
        assertEquals(Optional.empty(), applications.findByKeyHash(SECOND_KEY));
    }

    @Test
    void duplicateNameIsRejectedWithoutStorageDetails() {
        Application first = applications.create("crm", FIRST_KEY, CREATED);

        ApplicationCommandException rejected = assertThrows(ApplicationCommandException.class,
                () -> applications.create("crm", SECOND_KEY, CREATED));

        assertEquals("An application named 'crm' already exists.", rejected.getMessage());
        assertEquals(List.of(first), applications.list());
    }

    @Test
    void aKeyHashCollisionIsRefusedAndStoresNothing() {
        applications.create("crm", FIRST_KEY, CREATED);

        assertThrows(RuntimeException.class, () -> applications.create("mailing", FIRST_KEY, CREATED));
        assertEquals(Optional.empty(), applications.findByName("mailing"));
    }

    @Test
    void replacingTheKeyRetiresTheOldOne() {
        Application created = applications.create("crm", FIRST_KEY, CREATED);

        assertTrue(applications.replaceKey(created.id(), SECOND_KEY));

        assertEquals(Optional.empty(), applications.findByKeyHash(FIRST_KEY));
        assertEquals(Optional.of(created), applications.findByKeyHash(SECOND_KEY));
    }

    @Test
    void replacingTheKeyWithNullRevokesIt() {
        Application created = applications.create("crm", FIRST_KEY, CREATED);

        assertTrue(applications.replaceKey(created.id(), null));

        Application revoked = new Application(created.id(), "crm", CREATED, false);
        assertEquals(Optional.empty(), applications.findByKeyHash(FIRST_KEY));
        assertEquals(List.of(revoked), applications.list());
        assertEquals(Optional.of(revoked), applications.findByName("crm"));
    }

    @Test
    void replacingTheKeyOfAnUnknownApplicationReportsFalse() {
        Application created = applications.create("crm", FIRST_KEY, CREATED);

        assertFalse(applications.replaceKey(new ApplicationId(created.id().value() + 1), SECOND_KEY));
        assertEquals(Optional.of(created), applications.findByKeyHash(FIRST_KEY));
    }
}
