package org.donordata.adapters.http.testing;

import io.helidon.http.HeaderValues;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.junit.jupiter.api.BeforeEach;

/**
 * The API's routes on Helidon's in-memory client, over {@link ApiFixture}, emptied before every test. Helidon finds
 * {@code @SetUpRoute} on superclasses, and {@code @RoutingTest} is inherited; the tests that extend this live in the
 * packages of what they test.
 */
@RoutingTest
public abstract class RoutingTestBase {

    protected static final ApiFixture FIXTURE = new ApiFixture();
    protected static final HttpApi API = FIXTURE.api();

    protected final DirectClient client;

    protected RoutingTestBase(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    public static void routing(HttpRouting.Builder routing) {
        API.routing(routing);
    }

    @BeforeEach
    protected void resetFixture() {
        FIXTURE.reset();
    }

    /** A GET with this API key. */
    protected ClientResponseTyped<String> get(String path, String key) {
        return client.get(path).header(ApiKeyCheck.API_KEY, key).request(String.class);
    }

    /** A POST of this JSON body with this API key; an empty one sends no body. */
    protected ClientResponseTyped<String> post(String path, String key, String json) {
        var request = client.post(path).header(ApiKeyCheck.API_KEY, key);
        return json.isEmpty() ? request.request(String.class)
                : request.header(HeaderValues.CONTENT_TYPE_JSON).submit(json, String.class);
    }
}
