package org.donordata.adapters.sql.applications;

import static org.donordata.adapters.sql.kit.StoredInstantBinding.micros;

import static org.donordata.adapters.sql.schema.Tables.API_KEYS;
import static org.donordata.adapters.sql.schema.Tables.APPLICATIONS;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.StoredInstantBinding;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.adapters.sql.trail.TrailAppend;
import org.donordata.application.Actor;
import org.donordata.application.ApiKey;
import org.donordata.application.Application;
import org.donordata.application.ApplicationCommandException;
import org.donordata.application.ApplicationId;
import org.donordata.application.ApplicationRepository;
import org.donordata.application.AuditAction;
import org.donordata.application.Caller;
import org.donordata.application.KeyHash;
import org.donordata.application.Scope;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.exception.DataAccessException;

/**
 * Applications in the {@code applications} table and their keys in {@code api_keys}, only the hash of a key ever
 * stored; each change of a key writes its event to the trail in the same transaction.
 */
public final class JooqApplicationRepository implements ApplicationRepository {

    private static final UniqueConstraint NAME = new UniqueConstraint("applications_name_unique", "applications.name");

    private final DSLContext dsl;
    private final DatabaseKind kind;
    private final TrailAppend trail;

    /** @param trail how the keys' events are appended to the trail */
    public JooqApplicationRepository(DSLContext dsl, DatabaseKind kind, TrailAppend trail) {
        this.dsl = dsl;
        this.kind = kind;
        this.trail = trail;
    }

    @Override
    public Caller create(String name, NewKey firstKey, Actor actor, Instant now) {
        // Microseconds are the finest every database keeps; truncating here makes each keep the same instant.
        Instant createdAt = micros(now);
        try {
            return dsl.transactionResult(transaction -> {
                DSLContext tx = transaction.dsl();
                long id = tx.insertInto(APPLICATIONS)
                        .set(APPLICATIONS.NAME, name)
                        .set(APPLICATIONS.CREATED_AT, createdAt)
                        .returningResult(APPLICATIONS.ID)
                        .fetchSingle()
                        .value1();
                Application application = new Application(new ApplicationId(id), name, createdAt);
                return new Caller(application, insertKey(tx, application.id(), firstKey, Optional.empty(),
                        AuditAction.KEY_CREATED, actor, createdAt));
            });
        } catch (DataAccessException e) {
            if (NAME.isViolatedBy(e, kind)) {
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
    public Optional<Application> find(ApplicationId id) {
        return dsl.selectFrom(APPLICATIONS).where(APPLICATIONS.ID.eq(id.value()))
                .fetchOptional(JooqApplicationRepository::toApplication);
    }

    @Override
    public Optional<Application> findByName(String name) {
        return dsl.selectFrom(APPLICATIONS)
                .where(APPLICATIONS.NAME.eq(name))
                .fetchOptional(JooqApplicationRepository::toApplication);
    }

    @Override
    public List<ApiKey> keys(ApplicationId application) {
        return dsl.selectFrom(API_KEYS).where(API_KEYS.APPLICATION_ID.eq(application.value())).orderBy(API_KEYS.ID)
                .fetch(JooqApplicationRepository::toKey);
    }

    @Override
    public Optional<ApiKey> key(long id) {
        return dsl.selectFrom(API_KEYS).where(API_KEYS.ID.eq(id)).fetchOptional(JooqApplicationRepository::toKey);
    }

    @Override
    public ApiKey addKey(ApplicationId application, NewKey key, Actor actor, Instant now) {
        return dsl.transactionResult(transaction -> insertKey(transaction.dsl(), application, key, Optional.empty(),
                AuditAction.KEY_CREATED, actor, micros(now)));
    }

    @Override
    public ApiKey rotate(ApiKey old, KeyHash hash, Instant oldEndsAt, Actor actor, Instant now) {
        return dsl.transactionResult(transaction -> {
            DSLContext tx = transaction.dsl();
            end(tx, old.id(), micros(oldEndsAt));
            return insertKey(tx, old.application(), new NewKey(old.name(), old.scopes(), hash, old.expiresAt()),
                    Optional.of(old.id()), AuditAction.KEY_ROTATED, actor, micros(now));
        });
    }

    @Override
    public void revoke(ApiKey key, Actor actor, Instant now) {
        dsl.transaction(transaction -> {
            end(transaction.dsl(), key.id(), micros(now));
            trail.keyEvent(transaction.dsl(), key.application(), key.id(), AuditAction.KEY_REVOKED, actor, micros(now));
        });
    }

    @Override
    public Optional<Caller> findByKeyHash(KeyHash hash) {
        return dsl.select(API_KEYS.fields()).select(APPLICATIONS.fields())
                .from(API_KEYS).join(APPLICATIONS).on(APPLICATIONS.ID.eq(API_KEYS.APPLICATION_ID))
                .where(API_KEYS.KEY_HASH.eq(hash.hex()))
                .fetchOptional(row -> new Caller(toApplication(row), toKey(row)));
    }

    @Override
    public void recordUse(long keyId, Instant at) {
        dsl.update(API_KEYS).set(API_KEYS.LAST_USED_AT, micros(at)).where(API_KEYS.ID.eq(keyId)).execute();
    }

    private ApiKey insertKey(DSLContext tx, ApplicationId application, NewKey key, Optional<Long> rotatedFrom,
            AuditAction event, Actor actor, Instant now) {
        Optional<Instant> expiresAt = key.expiresAt().map(StoredInstantBinding::micros);
        long id = tx.insertInto(API_KEYS)
                .set(API_KEYS.APPLICATION_ID, application.value())
                .set(API_KEYS.NAME, key.name())
                .set(API_KEYS.KEY_HASH, key.hash().hex())
                // As OAuth writes scopes: names separated by spaces, sorted.
                .set(API_KEYS.SCOPES, Scope.names(key.scopes(), " "))
                .set(API_KEYS.CREATED_AT, now)
                .set(API_KEYS.EXPIRES_AT, expiresAt.orElse(null))
                .set(API_KEYS.ROTATED_FROM, rotatedFrom.orElse(null))
                .returningResult(API_KEYS.ID)
                .fetchSingle()
                .value1();
        trail.keyEvent(tx, application, id, event, actor, now);
        return new ApiKey(id, application, key.name(), key.scopes(), now, expiresAt, Optional.empty(),
                Optional.empty(), rotatedFrom);
    }

    /** Ends the key at {@code at}, unless it ends sooner already. */
    private static void end(DSLContext tx, long keyId, Instant at) {
        tx.update(API_KEYS).set(API_KEYS.ENDS_AT, at)
                .where(API_KEYS.ID.eq(keyId), API_KEYS.ENDS_AT.isNull().or(API_KEYS.ENDS_AT.gt(at))).execute();
    }


    private static Set<Scope> scopes(String stored) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : stored.split(" ")) {
            // A scope this version does not know (written by a later one) grants nothing here.
            Scope.fromWireName(name).ifPresent(scopes::add);
        }
        return scopes;
    }

    private static Application toApplication(Record row) {
        return new Application(new ApplicationId(row.get(APPLICATIONS.ID)), row.get(APPLICATIONS.NAME),
                row.get(APPLICATIONS.CREATED_AT));
    }

    private static ApiKey toKey(Record row) {
        return new ApiKey(row.get(API_KEYS.ID), new ApplicationId(row.get(API_KEYS.APPLICATION_ID)),
                row.get(API_KEYS.NAME), scopes(row.get(API_KEYS.SCOPES)), row.get(API_KEYS.CREATED_AT),
                Optional.ofNullable(row.get(API_KEYS.EXPIRES_AT)), Optional.ofNullable(row.get(API_KEYS.ENDS_AT)),
                Optional.ofNullable(row.get(API_KEYS.LAST_USED_AT)), Optional.ofNullable(row.get(API_KEYS.ROTATED_FROM)));
    }
}
