package org.donordata.adapters.sql.applications;

import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import org.donordata.adapters.sql.DatabaseKind;
import org.donordata.adapters.sql.UniqueConstraint;
import org.donordata.application.Application;
import org.donordata.application.ApplicationCommandException;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.KeyHash;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;

/** Applications in the {@code applications} table; only the hash of a key is ever stored. */
public final class JooqApplicationRepository implements ApplicationRepository {

    private static final UniqueConstraint NAME = new UniqueConstraint("applications_name_unique", "applications.name");

    private final DSLContext dsl;

    public JooqApplicationRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Application create(String name, KeyHash keyHash, Instant now) {
        // Microseconds are the finest both databases keep; truncating here makes both keep the same instant.
        Instant createdAt = now.truncatedTo(ChronoUnit.MICROS);
        try {
            long id = dsl.insertInto(APPLICATIONS)
                    .set(APPLICATIONS.NAME, name)
                    .set(APPLICATIONS.KEY_HASH, keyHash.hex())
                    .set(APPLICATIONS.CREATED_AT, createdAt)
                    .returningResult(APPLICATIONS.ID)
                    .fetchSingle()
                    .value1();
            return new Application(new ApplicationId(id), name, createdAt, true);
        } catch (DataAccessException e) {
            if (NAME.isViolatedBy(e, DatabaseKind.of(dsl))) {
                throw new ApplicationCommandException("An application named '" + name + "' already exists.");
            }
            throw e;
        }
    }

    @Override
    public List<Application> list() {
        // Ids are handed out in creation order, so id order is oldest first.
        return dsl.selectFrom(APPLICATIONS).orderBy(APPLICATIONS.ID).fetch(JooqApplicationRepository::toApplication);
    }

    @Override
    public Optional<Application> findByName(String name) {
        return dsl.selectFrom(APPLICATIONS)
                .where(APPLICATIONS.NAME.eq(name))
                .fetchOptional(JooqApplicationRepository::toApplication);
    }

    @Override
    public Optional<Application> findByKeyHash(KeyHash keyHash) {
        // A revoked key's hash is NULL, which equals nothing.
        return dsl.selectFrom(APPLICATIONS)
                .where(APPLICATIONS.KEY_HASH.eq(keyHash.hex()))
                .fetchOptional(JooqApplicationRepository::toApplication);
    }

    @Override
    public boolean replaceKey(ApplicationId id, KeyHash keyHashOrNull) {
        String hex = keyHashOrNull == null ? null : keyHashOrNull.hex();
        return dsl.update(APPLICATIONS)
                .set(APPLICATIONS.KEY_HASH, hex)
                .where(APPLICATIONS.ID.eq(id.value()))
                .execute() == 1;
    }

    private static Application toApplication(Record row) {
        return new Application(new ApplicationId(row.get(APPLICATIONS.ID)), row.get(APPLICATIONS.NAME),
                row.get(APPLICATIONS.CREATED_AT), row.get(APPLICATIONS.KEY_HASH) != null);
    }
}
