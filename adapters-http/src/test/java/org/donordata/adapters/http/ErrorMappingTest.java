package org.donordata.adapters.http;

import static org.donordata.adapters.http.ApiFixture.KEY;
import static org.donordata.adapters.http.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verifyNoInteractions;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorMappingTest extends RoutingTestBase {

    private final Logger log = Logger.getLogger(ErrorMapping.class.getName());
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    ErrorMappingTest(DirectClient client) {
        super(client);
    }

    @BeforeEach
    void setUp() {
        log.addHandler(capture);
        log.setUseParentHandlers(false);
    }

    @AfterEach
    void tearDown() {
        log.removeHandler(capture);
        log.setUseParentHandlers(true);
    }

    @ParameterizedTest
    @CsvSource({
            "DELETE, /api/v1/donors, 'GET, HEAD, POST'", "PUT, /api/v1/donors/3, 'GET, HEAD, POST'",
            "PATCH, /api/v1/donors/abc, 'GET, HEAD, POST'", "POST, /api/v1, 'GET, HEAD'",
            "PUT, /api/v1/, 'GET, HEAD'", "OPTIONS, /api/v1/donors, 'GET, HEAD, POST'"})
    void knownPathWrongMethod_is405WithAllow(String method, String path, String allow) {
        ClientResponseTyped<String> response = client.method(Method.create(method)).path(path)
                .header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);

        assertEquals("This path does not accept " + method + "; it accepts " + allow + ".", failure(response, 405));
        assertEquals(allow, response.headers().first(HeaderNames.ALLOW).orElseThrow());
        verifyNoInteractions(FIXTURE.donors);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/api", "/api/", "/api/v2", "/API/V1", "/api/v1/donors/", "/api/v1/donors/1/notes",
            "/api/v1/donors/1/2", "/favicon.ico"})
    void unknownPath_is404(String path) {
        assertEquals("Nothing exists at this path.",
                failure(client.get(path).header(ApiKeyCheck.API_KEY, KEY).request(String.class), 404));
    }

    @Test
    void unexpectedException_is500WithoutInternalsAndIsLoggedWithoutTheKey() {
        doThrow(new IllegalStateException("SQL [select * from donor]; /srv/donors/data/donors.db is locked"))
                .when(FIXTURE.donors).list(any(), any(), any());

        ClientResponseTyped<String> response = client.get("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);

        assertEquals("Internal error", failure(response, 500));
        for (String internal : List.of("SQL", "select", "/srv", "IllegalStateException", "Exception", "at org.")) {
            assertFalse(response.entity().contains(internal), internal);
        }
        LogRecord record = logged.stream().findFirst().orElse(null);
        assertNotNull(record, "the failure is logged");
        assertEquals(IllegalStateException.class, record.getThrown().getClass());
        assertFalse(record.getMessage().contains(KEY));
    }
}
