package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ApplicationServiceTest {

    private static final String CONFIGURED_KEY = "a-long-configured-key-0123456789";

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private final InMemoryApplicationRepository repository = new InMemoryApplicationRepository();
    private final ApplicationService service = new ApplicationService(repository, clock, new SecureRandom());

    @Test
    void createIssuesAChecksummedRandomKeyThatIsStoredOnlyAsItsHash() {
        IssuedKey first = service.create("Website");
        IssuedKey second = service.create("CRM");

        assertTrue(first.secret().matches("dds_[0-9A-Za-z]{49}"), first.secret().length() + " characters");
        assertTrue(KeySecret.isWellFormed(first.secret()));
        assertNotEquals(first.secret(), second.secret());
        assertEquals(KeyHash.of(first.secret()), repository.storedHash(first.key().id()));
        assertFalse(first.toString().contains(first.secret()), "an issued key must not leak through toString");
        assertEquals(Scope.all(), first.key().scopes());
        assertEquals("default", first.key().name());
    }

    @Test
    void everyCharacterOfAKeyIsCoveredByItsChecksum() {
        String key = service.create("Website").secret();
        for (int i = 4; i < key.length(); i++) {
            char changed = key.charAt(i) == 'a' ? 'b' : 'a';
            String typo = key.substring(0, i) + changed + key.substring(i + 1);
            assertFalse(KeySecret.isWellFormed(typo), "a change at " + i);
            assertInstanceOf(Authentication.Refused.class, service.authenticate(typo));
        }
    }

    @Test
    void aKeyWithAWrongChecksumIsRefusedWithoutALookUp() {
        ApplicationRepository stored = mock(ApplicationRepository.class);
        ApplicationService guarded = new ApplicationService(stored, clock, new SecureRandom());
        String key = KeySecret.generate(new SecureRandom());
        String wrongChecksum = key.substring(0, key.length() - 1) + (key.endsWith("0") ? "1" : "0");

        assertInstanceOf(Authentication.Refused.class, guarded.authenticate(wrongChecksum));
        verify(stored, never()).findByKeyHash(any());

        guarded.authenticate(key);
        verify(stored).findByKeyHash(KeyHash.of(key));
    }

    @Test
    void aKeyAuthenticatesItsOwnApplicationOnly() {
        IssuedKey website = service.create("Website");
        IssuedKey crm = service.create("CRM");

        assertEquals("Website", caller(website.secret()).application().name());
        assertEquals("CRM", caller(crm.secret()).application().name());
        for (String wrong : new String[] {website.secret() + "x", "", null, "k".repeat(10_000)}) {
            assertInstanceOf(Authentication.Refused.class, service.authenticate(wrong));
        }
    }

    @Test
    void aKeyGetsTheScopesItWasGivenAndAnExpiryThatEndsIt() {
        ApplicationId crm = service.create("CRM").application().id();

        IssuedKey form = service.createKey(crm, "Donation form", Set.of(Scope.DONORS_WRITE),
                Optional.of(Duration.ofHours(12)));

        Caller caller = caller(form.secret());
        assertTrue(caller.allows(Scope.DONORS_WRITE));
        assertFalse(caller.allows(Scope.DONORS_READ));
        assertEquals(Optional.of(clock.instant().plus(Duration.ofHours(12))), caller.key().expiresAt());
        clock.move(Duration.ofHours(12));
        assertInstanceOf(Authentication.Expired.class, service.authenticate(form.secret()));
        assertEquals(ApiKey.State.EXPIRED, service.keys(crm).getLast().state(service.now()));
    }

    @Test
    void aKeyNeedsANameAScopeAndAFutureExpiry() {
        ApplicationId crm = service.create("CRM").application().id();

        assertThrows(ApplicationCommandException.class,
                () -> service.createKey(crm, " ", Set.of(Scope.DONORS_READ), Optional.empty()));
        assertThrows(ApplicationCommandException.class, () -> service.createKey(crm, "x", Set.of(), Optional.empty()));
        assertThrows(ApplicationCommandException.class,
                () -> service.createKey(crm, "x", Set.of(Scope.DONORS_READ), Optional.of(Duration.ZERO)));
        assertEquals("No application with id 9 exists.", assertThrows(ApplicationCommandException.class,
                () -> service.createKey(new ApplicationId(9), "x", Set.of(Scope.DONORS_READ), Optional.empty()))
                .getMessage());
        assertEquals(1, service.keys(crm).size());
    }

    @Test
    void scopesAreParsedByNameAndAnUnknownOneIsNamed() {
        assertEquals(Set.of(Scope.DONORS_READ, Scope.DONORS_ERASE), Scope.parse("donors:read, donors:erase"));
        assertEquals("Unknown scope 'donors:delete'; the scopes are donors:erase,donors:merge,donors:read,"
                + "donors:write,fields:manage,webhooks:manage.", assertThrows(ApplicationCommandException.class,
                        () -> Scope.parse("donors:read,donors:delete")).getMessage());
        assertThrows(ApplicationCommandException.class, () -> Scope.parse(" , "));
    }

    @Test
    void aRotatedKeyKeepsWorkingUntilItsGraceEnds() {
        IssuedKey original = service.create("Website");

        IssuedKey rotated = service.rotateKey(original.key().id(), Duration.ofHours(1));

        assertEquals(original.key().name(), rotated.key().name());
        assertEquals(original.key().scopes(), rotated.key().scopes());
        assertEquals(ApiKey.State.RETIRING, service.keys(original.application().id()).getFirst().state(service.now()));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(original.secret()));
        clock.move(Duration.ofMinutes(59));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(original.secret()));
        clock.move(Duration.ofMinutes(1));
        assertInstanceOf(Authentication.Refused.class, service.authenticate(original.secret()));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(rotated.secret()));
        assertThrows(ApplicationCommandException.class, () -> service.rotateKey(original.key().id(), Duration.ZERO),
                "a retired key has been replaced already");
    }

    @Test
    void aGraceOfZeroEndsTheOldKeyAtOnceAndOneOverAWeekIsRefused() {
        IssuedKey original = service.create("Website");

        assertThrows(ApplicationCommandException.class,
                () -> service.rotateKey(original.key().id(), Duration.ofDays(7).plusSeconds(1)));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(original.secret()));
        IssuedKey rotated = service.rotateKey(original.key().id(), Duration.ZERO);

        assertInstanceOf(Authentication.Refused.class, service.authenticate(original.secret()));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(rotated.secret()));
    }

    @Test
    void revokingAKeyEndsItAtOnceAndLeavesTheOthers() {
        IssuedKey website = service.create("Website");
        IssuedKey crm = service.createKey(website.application().id(), "CRM", Set.of(Scope.DONORS_READ),
                Optional.empty());

        service.revokeKey(crm.key().id());

        assertInstanceOf(Authentication.Refused.class, service.authenticate(crm.secret()));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(website.secret()));
        assertEquals(List.of("key.created", "key.created", "key.revoked"),
                repository.keyEvents().stream().map(event -> event.action().wireName()).toList());
    }

    @Test
    void appsRotateKeyReplacesTheDefaultKeyAtOnceAndAppsRevokeEndsEveryKey() {
        IssuedKey original = service.create("Website");
        ApplicationId id = original.application().id();
        IssuedKey crm = service.createKey(id, "CRM", Set.of(Scope.DONORS_READ), Optional.empty());

        IssuedKey rotated = service.rotateDefaultKey(id);
        assertInstanceOf(Authentication.Refused.class, service.authenticate(original.secret()));
        assertEquals(id, caller(rotated.secret()).application().id());

        service.revokeAll(id);
        assertInstanceOf(Authentication.Refused.class, service.authenticate(rotated.secret()));
        assertInstanceOf(Authentication.Refused.class, service.authenticate(crm.secret()));

        IssuedKey reissued = service.rotateDefaultKey(id);
        assertEquals(Scope.all(), caller(reissued.secret()).key().scopes(), "a revoked application gets a new key");
    }

    @Test
    void aWorkingKeysUseIsNotedAndAnEndedOnesIsNot() {
        IssuedKey website = service.create("Website");

        service.authenticate(website.secret());
        assertEquals(Optional.of(clock.instant()), repository.key(website.key().id()).orElseThrow().lastUsedAt());

        service.revokeKey(website.key().id());
        clock.move(Duration.ofMinutes(5));
        service.authenticate(website.secret());
        assertEquals(Optional.of(clock.instant().minus(Duration.ofMinutes(5))),
                repository.key(website.key().id()).orElseThrow().lastUsedAt());
    }

    @Test
    void commandsOnUnknownApplicationsOrKeysOrBadNamesSayWhy() {
        assertEquals("No application with id 9 exists.", assertThrows(ApplicationCommandException.class,
                () -> service.rotateDefaultKey(new ApplicationId(9))).getMessage());
        assertThrows(ApplicationCommandException.class, () -> service.revokeAll(new ApplicationId(9)));
        assertEquals("No key with id 9 exists.", assertThrows(ApplicationCommandException.class,
                () -> service.revokeKey(9)).getMessage());
        assertThrows(ApplicationCommandException.class, () -> service.create("  "));
        assertThrows(ApplicationCommandException.class, () -> service.create("x".repeat(101)));
        service.create("Website");
        assertThrows(ApplicationCommandException.class, () -> service.create(" Website "));
    }

    @Test
    void aFreshInstallWithoutAConfiguredKeyGetsADefaultApplicationOnce() {
        IssuedKey issued = service.prepareDefaultApplication(Optional.empty()).orElseThrow();

        assertEquals(ApplicationService.DEFAULT_APPLICATION, issued.application().name());
        assertInstanceOf(Authentication.Valid.class, service.authenticate(issued.secret()));
        assertEquals(Optional.empty(), service.prepareDefaultApplication(Optional.empty()), "the key is shown only once");
        assertEquals(1, service.list().size());
    }

    @Test
    void aConfiguredKeyIsTheDefaultKeyOfTheDefaultApplicationWithEveryScope() {
        assertEquals(Optional.empty(), service.prepareDefaultApplication(Optional.of(CONFIGURED_KEY)));
        Caller caller = caller(CONFIGURED_KEY);
        assertEquals("default", caller.application().name());
        assertEquals(Scope.all(), caller.key().scopes());

        service.prepareDefaultApplication(Optional.of(CONFIGURED_KEY));
        assertEquals(1, service.keys(caller.application().id()).size(), "the same key again changes nothing");

        // On a later start with another configured key, the default key is replaced by the new one at once.
        service.prepareDefaultApplication(Optional.of(CONFIGURED_KEY + "-new"));
        assertInstanceOf(Authentication.Refused.class, service.authenticate(CONFIGURED_KEY));
        assertInstanceOf(Authentication.Valid.class, service.authenticate(CONFIGURED_KEY + "-new"));
        assertEquals(1, service.list().size());
    }

    @Test
    void aConfiguredKeyThatIsTooShortOrAMistypedServiceKeyIsRefused() {
        assertThrows(ApplicationCommandException.class, () -> service.prepareDefaultApplication(Optional.of("secret")));
        String key = KeySecret.generate(new SecureRandom());
        String typo = key.substring(0, 10) + (key.charAt(10) == 'a' ? 'b' : 'a') + key.substring(11);
        assertThrows(ApplicationCommandException.class, () -> service.prepareDefaultApplication(Optional.of(typo)));
        assertTrue(service.list().isEmpty());
    }

    private Caller caller(String secret) {
        return ((Authentication.Valid) service.authenticate(secret)).caller();
    }

    /** A clock a test moves on. */
    static final class MovableClock extends Clock {

        private Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void move(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
