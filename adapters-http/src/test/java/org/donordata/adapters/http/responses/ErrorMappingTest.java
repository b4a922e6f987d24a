package org.donordata.adapters.http.responses;

import static org.donordata.adapters.http.testing.ApiFixture.KEY;
import static org.donordata.adapters.http.testing.Envelopes.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verifyNoInteractions;

import java.util.List;
import java.util.logging.LogRecord;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientResponseTyped;
import io.helidon.webserver.testing.junit5.DirectClient;
import org.donordata.adapters.http.access.ApiKeyCheck;
import org.donordata.adapters.http.testing.RoutingTestBase;
import org.donordata.application.ServiceBusyException;
import org.donordata.application.StorageUnavailableException;
import org.donordata.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

// Runs alone: it reads a process-wide log, which tests running beside it would add to.
@RunsAlone
class ErrorMappingTest extends RoutingTestBase {

    private LogCapture logged;

    ErrorMappingTest(DirectClient client) {
        super(client);
    }

    @BeforeEach
    void setUp() {
        logged = LogCapture.of(ErrorMapping.LOGGER_NAME).withoutParentHandlers();
    }

    @AfterEach
    void tearDown() {
        logged.close();
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

    /**
     * What SQLite's writer throws when its queue stays full past the connection timeout (GroupCommitWriterTest shows
     * it below HTTP): over HTTP a 503 envelope with Retry-After, nothing logged as an error, for every kind of write.
     */
    @Test
    void aFullWriteQueue_is503WithRetryAfterForEveryWrite() {
        ServiceBusyException full = new ServiceBusyException("the write queue stayed full for 10000 ms");
        doThrow(full).when(FIXTURE.donors).create(any(), any(), any(), any());
        doThrow(full).when(FIXTURE.donors).modify(any(), any(), anyLong(), any(), any());
        doThrow(full).when(FIXTURE.donors).erase(any(), any(), anyLong(), any());
        doThrow(full).when(FIXTURE.donors).upsert(any(), any(), any(), any(), any(), any());

        for (String path : List.of("/api/v1/donors", "/api/v1/donors/1", "/api/v1/donors/external/crm-1")) {
            ClientResponseTyped<String> response = client.post(path).header(ApiKeyCheck.API_KEY, KEY)
                    .header(io.helidon.http.HeaderValues.CONTENT_TYPE_JSON)
                    .submit("{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}", String.class);
            assertEquals("The service is busy; retry after 1 s.", failure(response, 503), path);
            assertEquals("1", response.headers().first(HeaderNames.RETRY_AFTER).orElseThrow(), path);
        }
        ClientResponseTyped<String> erase = client.post("/api/v1/donors/1/erase").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);
        assertEquals("The service is busy; retry after 1 s.", failure(erase, 503));
        assertEquals("1", erase.headers().first(HeaderNames.RETRY_AFTER).orElseThrow());
        assertEquals(List.of(), logged.records(), "a busy service is no error to log");
    }

    /**
     * The database unreachable or out of space (StorageFailures recognises each database's own errors): 503 with
     * Retry-After, in words that tell the client what may have happened to its write, and nothing logged here (the SQL
     * adapter logs it once a minute).
     */
    @Test
    void anUnusableDatabase_is503SayingWhatMayHaveBeenStored() {
        doThrow(new StorageUnavailableException(StorageUnavailableException.Cause.FULL, false, "full"))
                .when(FIXTURE.donors).create(any(), any(), any(), any());
        doThrow(new StorageUnavailableException(StorageUnavailableException.Cause.UNREACHABLE, true, "gone"))
                .when(FIXTURE.donors).modify(any(), any(), anyLong(), any(), any());
        doThrow(new StorageUnavailableException(StorageUnavailableException.Cause.UNREACHABLE, false, "gone"))
                .when(FIXTURE.donors).list(any(), any(), any());
        String body = "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\"}";

        ClientResponseTyped<String> create = client.post("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY)
                .header(io.helidon.http.HeaderValues.CONTENT_TYPE_JSON).submit(body, String.class);
        ClientResponseTyped<String> modify = client.post("/api/v1/donors/1").header(ApiKeyCheck.API_KEY, KEY)
                .header(io.helidon.http.HeaderValues.CONTENT_TYPE_JSON).submit(body, String.class);
        ClientResponseTyped<String> list = client.get("/api/v1/donors").header(ApiKeyCheck.API_KEY, KEY)
                .request(String.class);

        assertEquals("The service cannot store data now: its database has no space left. Nothing was stored; retry"
                + " after 5 s.", failure(create, 503));
        assertEquals("The database cannot be reached now, and this request may or may not have been stored: retry"
                + " after 5 s (a create with the same Idempotency-Key is stored at most once).", failure(modify, 503));
        assertEquals("The database cannot be reached now; retry after 5 s.", failure(list, 503));
        for (ClientResponseTyped<String> response : List.of(create, modify, list)) {
            assertEquals("5", response.headers().first(HeaderNames.RETRY_AFTER).orElseThrow());
        }
        assertEquals(List.of(), logged.records());
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
        LogRecord record = logged.records().stream().findFirst().orElse(null);
        assertNotNull(record, "the failure is logged");
        assertEquals(IllegalStateException.class, record.getThrown().getClass());
        assertFalse(record.getMessage().contains(KEY));
    }
}
