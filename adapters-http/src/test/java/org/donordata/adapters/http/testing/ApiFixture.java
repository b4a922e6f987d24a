package org.donordata.adapters.http.testing;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.donordata.adapters.http.HttpApi;
import org.donordata.application.ApiKey;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.ApplicationService;
import org.donordata.application.Authentication;
import org.donordata.application.Caller;
import org.donordata.application.ChangeTokens;
import org.donordata.application.DonorService;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.Scope;
import org.donordata.application.TrailService;
import org.donordata.application.fields.CustomFieldService;
import org.donordata.application.fields.InMemoryCustomFieldRepository;
import org.donordata.application.webhooks.InMemoryWebhookRepository;
import org.donordata.application.webhooks.WebhookService;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.webhooks.WebhookUrl;

/**
 * The API over the real DonorService and an in-memory store. The service is a spy, so tests can check it was
 * never called and make it fail; applications are a mock that knows two keys.
 */
public final class ApiFixture {

    public static final String KEY = "key-of-charity-one";
    public static final String OTHER_KEY = "key-of-charity-two";
    public static final Application APPLICATION = new Application(new ApplicationId(7), "Charity One",
            Instant.parse("2024-01-01T00:00:00Z"));
    public static final Application OTHER_APPLICATION = new Application(new ApplicationId(8), "Charity Two",
            Instant.parse("2024-01-01T00:00:00Z"));
    public static final Caller CALLER = new Caller(APPLICATION, key(11, APPLICATION, "default", Scope.all()));
    public static final Caller OTHER_CALLER = new Caller(OTHER_APPLICATION,
            key(12, OTHER_APPLICATION, "default", Scope.all()));
    public static final Instant NOW = Instant.parse("2024-05-01T10:15:30.123456Z");
    public static final byte[] CHANGE_TOKEN_SECRET = "a fixed secret of thirty-two bytes or more"
            .getBytes(StandardCharsets.US_ASCII);

    public final InMemoryDonorRepository store = new InMemoryDonorRepository();
    public final DonorService donors = spy(new DonorService(store, Clock.fixed(NOW, ZoneOffset.UTC)));
    public final ApplicationService applications = mock(ApplicationService.class);
    public final InMemoryWebhookRepository webhookStore = new InMemoryWebhookRepository(store);
    private final ApplicationRepository keys = mock(ApplicationRepository.class);
    public final WebhookService webhooks = new WebhookService(webhookStore, keys, WebhookUrl.Rules.STRICT,
            Clock.fixed(NOW, ZoneOffset.UTC));
    public final InMemoryCustomFieldRepository fieldStore = new InMemoryCustomFieldRepository(store);
    public final CustomFieldService fields = new CustomFieldService(fieldStore, store, Clock.fixed(NOW, ZoneOffset.UTC));

    public ApiFixture() {
        when(applications.authenticate(KEY)).thenReturn(new Authentication.Valid(CALLER));
        when(applications.authenticate(OTHER_KEY)).thenReturn(new Authentication.Valid(OTHER_CALLER));
        when(keys.keys(APPLICATION.id())).thenReturn(List.of(CALLER.key()));
        when(keys.keys(OTHER_APPLICATION.id())).thenReturn(List.of(OTHER_CALLER.key()));
    }

    public HttpApi api() {
        return new HttpApi(donors, new TrailService(store, store), applications, webhooks, fields,
                new ChangeTokens(CHANGE_TOKEN_SECRET));
    }

    public static ApiKey key(long id, Application application, String name, Set<Scope> scopes) {
        return new ApiKey(id, application.id(), name, scopes, application.createdAt(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Makes {@code secret} a key of the first application with these scopes, and returns it. */
    public String keyWith(String secret, Set<Scope> scopes) {
        when(applications.authenticate(secret)).thenReturn(new Authentication.Valid(new Caller(APPLICATION,
                key(20 + scopes.size(), APPLICATION, "Scoped " + scopes, scopes))));
        return secret;
    }

    /** Forgets donors, stubbing and calls between tests; the spy goes on calling the real service. */
    public void reset() {
        store.clear();
        webhookStore.clear();
        fieldStore.clear();
        org.mockito.Mockito.reset(donors);
    }

    public long addDonor(Application owner, DonorChanges fields) {
        return new RepositoryWrites(store).insert(owner.id(), fields.applyToNew(List::of), NOW).id();
    }

    public void addPeople(int count) {
        for (int i = 1; i <= count; i++) {
            addDonor(APPLICATION, DonorChanges.from(Map.of("first_name", "Person", "last_name", "No " + i)));
        }
    }
}
