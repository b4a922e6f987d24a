package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class ApplicationServiceTest {

    private static final String CONFIGURED_KEY = "a-long-configured-key-0123456789";

    private final InMemoryApplicationRepository repository = new InMemoryApplicationRepository();
    private final ApplicationService service = new ApplicationService(repository,
            Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC), new SecureRandom());

    @Test
    void createIssuesARandom256BitKeyThatIsStoredOnlyAsItsHash() {
        IssuedKey first = service.create("Website");
        IssuedKey second = service.create("CRM");

        assertTrue(first.key().startsWith("dds_"));
        assertEquals(32, Base64.getUrlDecoder().decode(first.key().substring(4)).length);
        assertNotEquals(first.key(), second.key());
        assertEquals(KeyHash.of(first.key()), repository.storedKey(first.application().id()));
        assertFalse(first.toString().contains(first.key()), "an issued key must not leak through toString");
    }

    @Test
    void aKeyAuthenticatesItsOwnApplicationOnly() {
        IssuedKey website = service.create("Website");
        IssuedKey crm = service.create("CRM");

        assertEquals("Website", service.authenticate(website.key()).orElseThrow().name());
        assertEquals("CRM", service.authenticate(crm.key()).orElseThrow().name());
        assertEquals(Optional.empty(), service.authenticate(website.key() + "x"));
        assertEquals(Optional.empty(), service.authenticate(""));
        assertEquals(Optional.empty(), service.authenticate(null));
        assertEquals(Optional.empty(), service.authenticate("k".repeat(10_000)));
    }

    @Test
    void rotatingReplacesTheKeyAndRevokingRemovesIt() {
        IssuedKey original = service.create("Website");
        ApplicationId id = original.application().id();

        IssuedKey rotated = service.rotateKey(id);
        assertEquals(Optional.empty(), service.authenticate(original.key()));
        assertEquals(id, service.authenticate(rotated.key()).orElseThrow().id());

        service.revoke(id);
        assertEquals(Optional.empty(), service.authenticate(rotated.key()));
        assertFalse(service.list().get(0).keyActive());
    }

    @Test
    void commandsOnUnknownApplicationsOrBadNamesSayWhy() {
        assertEquals("No application with id 9 exists.",
                assertThrows(ApplicationCommandException.class, () -> service.rotateKey(new ApplicationId(9))).getMessage());
        assertThrows(ApplicationCommandException.class, () -> service.revoke(new ApplicationId(9)));
        assertThrows(ApplicationCommandException.class, () -> service.create("  "));
        assertThrows(ApplicationCommandException.class, () -> service.create("x".repeat(101)));
        service.create("Website");
        assertThrows(ApplicationCommandException.class, () -> service.create(" Website "));
    }

    @Test
    void aFreshInstallWithoutAConfiguredKeyGetsADefaultApplicationOnce() {
        IssuedKey issued = service.prepareDefaultApplication(Optional.empty()).orElseThrow();

        assertEquals(ApplicationService.DEFAULT_APPLICATION, issued.application().name());
        assertTrue(service.authenticate(issued.key()).isPresent());
        assertEquals(Optional.empty(), service.prepareDefaultApplication(Optional.empty()), "the key is shown only once");
        assertEquals(1, service.list().size());
    }

    @Test
    void aConfiguredKeyIsGivenToTheDefaultApplicationAndWorksAtOnce() {
        assertEquals(Optional.empty(), service.prepareDefaultApplication(Optional.of(CONFIGURED_KEY)));
        assertEquals("default", service.authenticate(CONFIGURED_KEY).orElseThrow().name());

        // On a later start with another configured key, the default application takes the new one.
        service.prepareDefaultApplication(Optional.of(CONFIGURED_KEY + "-new"));
        assertEquals(Optional.empty(), service.authenticate(CONFIGURED_KEY));
        assertEquals(1, service.list().size());
    }

    @Test
    void aConfiguredKeyThatIsTooShortIsRefused() {
        assertThrows(ApplicationCommandException.class, () -> service.prepareDefaultApplication(Optional.of("secret")));
        assertTrue(service.list().isEmpty());
    }
}
