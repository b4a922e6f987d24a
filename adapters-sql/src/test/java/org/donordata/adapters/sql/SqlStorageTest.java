package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.CONSENT_PURPOSES;
import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.CopiedTable;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Pipeline;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.StoredConcern;
import java.util.ArrayList;
import org.donordata.adapters.sql.donors.IdempotencyKeyRows;
import org.donordata.application.Application;
import org.donordata.application.ApplicationId;
import org.donordata.application.HeldIdempotencyKey;
import org.donordata.application.KeyHash;
import org.donordata.application.RepositoryWrites;
import org.donordata.application.TestApplications;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.IdempotencyKey;
import org.jooq.Param;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * What the SQL adapter keeps beyond the ports' contracts: the schema's own constraints, reopening without migrating
 * again, and the rows behind idempotent creates. Run on every database of {@link TestDatabases}.
 */
@OnEveryDatabase
class SqlStorageTest extends DonorRepositoryTestBase {

    static final Duration LIFETIME = Duration.ofHours(24);
    static final IdempotencyKey KEY = new IdempotencyKey("order-4711");

    /**
     * A forgotten table fails here rather than staying behind in every move: each table of the migrated schema (the
     * migration tool's and SQLite's own aside) is copied by copy-database or named, with why, as not copied.
     */
    @Test
    void everyTableIsCopiedOrNamedWithWhyNot() {
        Set<String> stored = new TreeSet<>();
        database.dsl().connection(connection -> {
            try (ResultSet found = connection.getMetaData().getTables(connection.getCatalog(), connection.getSchema(),
                    "%", new String[] {"TABLE"})) {
                while (found.next()) {
                    String table = found.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
                    if (!table.startsWith("flyway_") && !table.startsWith("sqlite_")) {
                        stored.add(table);
                    }
                }
            }
        });
        List<String> named = new ArrayList<>();
        for (StoredConcern concern : SqlDatabase.CONCERNS) {
            named.addAll(concern.notCopied().keySet());
            for (CopiedTable copied : concern.copiedTables()) {
                named.add(copied.tableName().toLowerCase(Locale.ROOT));
            }
        }

        assertEquals(List.copyOf(stored), named.stream().sorted().toList(),
                "every table named once by one concern (SqlDatabase.CONCERNS), as copied or not copied");
    }

    @Test
    void aDonorOfNoApplicationIsRefusedByTheDatabase() {
        ApplicationId unknown = new ApplicationId(otherOwner.value() + 1);

        assertThrows(DataAccessException.class, () -> new RepositoryWrites(donors).insert(unknown, person("Nobody's", null), CREATED));
        assertEquals(List.of(), donors.list(unknown, DonorFilter.NONE, 0, 30));
    }

    @Test
    void aKeyHashCollisionIsADatabaseErrorNotADuplicateName() {
        TestApplications.create(database.applications(), "crm", "shared", CREATED).application();

        assertThrows(DataAccessException.class,
                () -> TestApplications.create(database.applications(), "mailing", "shared", CREATED).application());
    }

    @Test
    void reopeningMigratesNothingAgainAndKeepsEveryRow() {
        DonorDetails ada = person("Ada", "crm-1");
        long donorId = new RepositoryWrites(donors).insert(owner, ada, CREATED).id();
        List<Application> applications = database.applications().list();
        int migrationsApplied = migrationHistorySize();
        database.close();

        database = SqlDatabase.open(testDatabase.settings());

        assertEquals(migrationsApplied, migrationHistorySize());
        assertEquals(applications, database.applications().list());
        assertEquals(Optional.of(ada), database.donors().find(owner, donorId).map(Donor::details));
    }

    private int migrationHistorySize() {
        return database.dsl().fetchCount(DSL.table(DSL.name("flyway_schema_history")));
    }

    @Test
    void aKeyedCreateRecordsOneRowForItsKeyAndARetryNone() {
        DonorDetails ada = person("Ada", null);
        insertOnce(owner, KEY, ada, CREATED);
        insertOnce(owner, KEY, ada, CREATED.plusSeconds(30));

        assertEquals(1, keyRows());
    }

    @Test
    void anExpiredKeysRowIsReplacedByItsNextUse() {
        insertOnce(owner, KEY, person("Ada", null), CREATED);

        insertOnce(owner, KEY, person("Grace", null), CREATED.plus(LIFETIME));

        assertEquals(1, keyRows());
    }

    @Test
    void oneRecordingCreateInEightDeletesAtMostAHundredExpiredKeys() {
        long donorId = new RepositoryWrites(donors).insert(owner, person("Old", null), CREATED).id();
        var rows = database.dsl().insertInto(IDEMPOTENCY_KEYS, IDEMPOTENCY_KEYS.APPLICATION_ID,
                IDEMPOTENCY_KEYS.API_KEY_ID, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY, IDEMPOTENCY_KEYS.FINGERPRINT,
                IDEMPOTENCY_KEYS.DONOR_ID, IDEMPOTENCY_KEYS.CREATED_AT);
        for (int i = 0; i < 150; i++) {
            rows = rows.values(owner.value(), HeldIdempotencyKey.COMMANDS, "old-" + i, "0".repeat(64), donorId,
                    CREATED.plusSeconds(i));
        }
        rows.execute();
        Instant afterAll = CREATED.plus(LIFETIME).plusSeconds(150);

        int every = IdempotencyKeyRows.PURGE_EVERY;
        for (int i = 0; i < every; i++) {
            insertOnce(owner, new IdempotencyKey("new-" + i), person("Ada" + i, null), afterAll);
        }
        assertEquals(150 - IdempotencyKeyRows.PURGE_BATCH + every, keyRows(), "one of any " + every + " creates purges");
        assertEquals(1, keyRows("old-149"), "the purge takes any expired rows, and no live one");
        for (int i = every; i < 2 * every; i++) {
            insertOnce(otherOwner, new IdempotencyKey("new-" + i), person("Grace" + i, null), afterAll);
        }
        assertEquals(2 * every, keyRows());
    }

    @Test
    void aKeyedCreateThatFailsRecordsNoKey() {
        new RepositoryWrites(donors).insert(owner, person("Ada", "crm-1"), CREATED);

        assertThrows(DuplicateExternalIdException.class,
                () -> insertOnce(owner, KEY, person("Ada", "crm-1"), CREATED.plusSeconds(1)));

        assertEquals(0, keyRows());
    }

    /**
     * A write's statements (Pipeline) run in their order, each seeing those before it, and each is given its own count;
     * where they go together (PostgreSQL) their values are bound at their own places of the joined statement. A
     * failing one fails the write and stores nothing of it.
     */
    @Test
    void aWritesStatementsRunInTheirOrderEachGivenItsOwnCount() {
        DatabaseKind kind = database.kind();
        Param<Long> application = DSL.param("p_application", Long.class);
        Param<String> purpose = DSL.param("p_purpose", String.class);
        Statement add = Statement.render(kind.renderer(), DSL.insertInto(CONSENT_PURPOSES,
                CONSENT_PURPOSES.APPLICATION_ID, CONSENT_PURPOSES.PURPOSE).values(application, purpose));
        Statement mark = Statement.render(kind.renderer(), DSL.update(CONSENT_PURPOSES)
                .set(CONSENT_PURPOSES.PURPOSE, DSL.concat(CONSENT_PURPOSES.PURPOSE, purpose))
                .where(CONSENT_PURPOSES.APPLICATION_ID.eq(application)));
        Statement remove = Statement.render(kind.renderer(), DSL.deleteFrom(CONSENT_PURPOSES)
                .where(CONSENT_PURPOSES.PURPOSE.eq(purpose)));
        List<Integer> counts = new ArrayList<>();
        Bindings ofOwner = new Bindings(kind).set(application, owner.value());

        database.dsl().transaction(tx -> new Pipeline(kind)
                .add(add, new Bindings(kind).set(application, owner.value()).set(purpose, "news"), counts::add)
                .add(add, new Bindings(kind).set(application, otherOwner.value()).set(purpose, "appeals"), counts::add)
                .add(mark, new Bindings(kind).set(application, owner.value()).set(purpose, "-marked"), counts::add)
                .add(remove, new Bindings(kind).set(purpose, "none such"), counts::add)
                .run(DSL.using(tx)));

        assertEquals(List.of(1, 1, 1, 0), counts);
        assertEquals(List.of("appeals", "news-marked"), database.dsl().select(CONSENT_PURPOSES.PURPOSE)
                .from(CONSENT_PURPOSES).orderBy(CONSENT_PURPOSES.PURPOSE).fetch(CONSENT_PURPOSES.PURPOSE));
        assertThrows(DataAccessException.class, () -> database.dsl().transaction(tx -> new Pipeline(kind)
                .add(remove, new Bindings(kind).set(purpose, "appeals"))
                .add(add, ofOwner.set(purpose, "news-marked"))
                .run(DSL.using(tx))));
        assertEquals(2, database.dsl().fetchCount(CONSENT_PURPOSES), "the failed write stored nothing");
    }

    private long insertOnce(ApplicationId creator, IdempotencyKey key, DonorDetails details, Instant now) {
        return new RepositoryWrites(donors).insertOnce(creator, key, DonorFingerprint.of(details), details, now, LIFETIME).donorId();
    }

    private int keyRows() {
        return database.dsl().fetchCount(IDEMPOTENCY_KEYS);
    }

    private int keyRows(String key) {
        return database.dsl().fetchCount(IDEMPOTENCY_KEYS, IDEMPOTENCY_KEYS.IDEMPOTENCY_KEY.eq(key));
    }
}
