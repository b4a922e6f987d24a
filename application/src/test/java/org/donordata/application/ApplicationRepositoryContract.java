package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.donordata.testing.Await;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ApplicationRepository} does, whatever stores the applications: a new adapter extends this class,
 * says how to open a fresh store, and gets the whole behaviour suite. Subclasses: the in-memory repository here
 * (InMemoryApplicationRepositoryTest), every database in adapters-sql (SqlApplicationRepositoryTest).
 */
public abstract class ApplicationRepositoryContract {

    protected static final Instant CREATED = Instant.parse("2024-05-01T09:30:00.654321Z");
    static final KeyHash FIRST_KEY = KeyHash.of("first key");
    static final KeyHash SECOND_KEY = KeyHash.of("second key");
    static final Actor OPERATOR = Actor.command("test");

    protected ApplicationRepository applications;

    /** A fresh, empty store: its application repository. Called before each test; the subclass closes it after. */
    protected abstract ApplicationRepository openEmptyStore();

    @BeforeEach
    void openStore() {
        applications = openEmptyStore();
    }

    static ApplicationRepository.NewKey everyScope(KeyHash hash) {
        return new ApplicationRepository.NewKey("default", Scope.all(), hash, Optional.empty());
    }

    @Test
    void createdApplicationIsListedAndFoundByNameIdAndKey() {
        Caller created = applications.create("Förderverein 🎻", everyScope(FIRST_KEY), OPERATOR, CREATED);

        Application application = created.application();
        assertEquals(new Application(application.id(), "Förderverein 🎻", CREATED), application);
        assertEquals(new ApiKey(created.key().id(), application.id(), "default", Scope.all(), CREATED,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), created.key());
        assertEquals(List.of(application), applications.list());
        assertEquals(Optional.of(application), applications.findByName("Förderverein 🎻"));
        assertEquals(Optional.of(application), applications.find(application.id()));
        assertEquals(Optional.of(created), applications.findByKeyHash(FIRST_KEY));
        assertEquals(List.of(created.key()), applications.keys(application.id()));
        assertEquals(Optional.of(created.key()), applications.key(created.key().id()));
    }

    @Test
    void listIsOldestFirst() {
        Application first = applications.create("b", everyScope(FIRST_KEY), OPERATOR, CREATED).application();
        Application second = applications.create("a", everyScope(SECOND_KEY), OPERATOR, CREATED.plusSeconds(1))
                .application();

        assertTrue(first.id().value() < second.id().value());
        assertEquals(List.of(first, second), applications.list());
    }

    @Test
    void unknownNameIdAndKeyAreNotFound() {
        Caller known = applications.create("known", everyScope(FIRST_KEY), OPERATOR, CREATED);

        assertEquals(Optional.empty(), applications.findByName("unknown"));
        assertEquals(Optional.empty(), applications.findByName("KNOWN"));
        assertEquals(Optional.empty(), applications.find(new ApplicationId(known.application().id().value() + 1)));
        assertEquals(Optional.empty(), applications.findByKeyHash(SECOND_KEY));
        assertEquals(Optional.empty(), applications.key(known.key().id() + 1));
    }

    @Test
    void duplicateNameIsRejectedWithoutStorageDetails() {
        Application first = applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED).application();

        ApplicationCommandException rejected = assertThrows(ApplicationCommandException.class,
                () -> applications.create("crm", everyScope(SECOND_KEY), OPERATOR, CREATED));

        assertEquals("An application named 'crm' already exists.", rejected.getMessage());
        assertEquals(List.of(first), applications.list());
    }

    @Test
    void aKeyHashCollisionIsRefusedAndStoresNothing() {
        applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED);

        assertThrows(RuntimeException.class,
                () -> applications.create("mailing", everyScope(FIRST_KEY), OPERATOR, CREATED));
        assertEquals(Optional.empty(), applications.findByName("mailing"));
    }

    @Test
    void aKeyKeepsItsNameScopesAndExpiry() {
        Application crm = applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED).application();
        Instant expiry = CREATED.plusSeconds(3_600);

        ApiKey added = applications.addKey(crm.id(), new ApplicationRepository.NewKey("Website",
                Set.of(Scope.DONORS_WRITE), SECOND_KEY, Optional.of(expiry)), OPERATOR, CREATED.plusSeconds(1));

        assertEquals(new ApiKey(added.id(), crm.id(), "Website", Set.of(Scope.DONORS_WRITE), CREATED.plusSeconds(1),
                Optional.of(expiry), Optional.empty(), Optional.empty(), Optional.empty()), added);
        assertEquals(Optional.of(new Caller(crm, added)), applications.findByKeyHash(SECOND_KEY));
        assertEquals(2, applications.keys(crm.id()).size());
    }

    @Test
    void aRotationMakesAKeyLikeTheOldAndEndsTheOldWhenTold() {
        Caller crm = applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED);
        Instant graceEnds = CREATED.plusSeconds(86_400);

        ApiKey rotated = applications.rotate(crm.key(), SECOND_KEY, graceEnds, OPERATOR, CREATED.plusSeconds(5));

        assertEquals(new ApiKey(rotated.id(), crm.application().id(), "default", Scope.all(), CREATED.plusSeconds(5),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(crm.key().id())), rotated);
        assertEquals(Optional.of(graceEnds), applications.key(crm.key().id()).orElseThrow().endsAt());
        assertEquals(Optional.of(rotated), applications.findByKeyHash(SECOND_KEY).map(Caller::key));
    }

    @Test
    void aRevocationEndsTheKeyNowButNeverLaterThanItEndedAlready() {
        Caller crm = applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED);

        applications.revoke(crm.key(), OPERATOR, CREATED.plusSeconds(10));
        applications.revoke(applications.key(crm.key().id()).orElseThrow(), OPERATOR, CREATED.plusSeconds(20));

        assertEquals(Optional.of(CREATED.plusSeconds(10)), applications.key(crm.key().id()).orElseThrow().endsAt());
    }

    @Test
    void aKeysUseIsRecorded() {
        Caller crm = applications.create("crm", everyScope(FIRST_KEY), OPERATOR, CREATED);

        applications.recordUse(crm.key().id(), CREATED.plusSeconds(60));

        // A store may write it off the caller's thread (the SQL adapter does): the condition is waited for.
        Await.until("the key's use recorded", Duration.ofSeconds(10),
                () -> applications.key(crm.key().id()).orElseThrow().lastUsedAt().isPresent());
        assertEquals(Optional.of(CREATED.plusSeconds(60)), applications.key(crm.key().id()).orElseThrow().lastUsedAt());
    }
}
