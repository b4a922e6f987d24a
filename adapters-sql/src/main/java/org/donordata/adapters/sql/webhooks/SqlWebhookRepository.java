package org.donordata.adapters.sql.webhooks;

import static org.donordata.adapters.sql.kit.StoredInstantBinding.micros;

import static org.donordata.adapters.sql.schema.Tables.WEBHOOK_ENDPOINTS;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.donordata.adapters.sql.applications.ApplicationStorage;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.StoredInstantBinding;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.webhooks.WebhookEndpoint;
import org.donordata.application.webhooks.WebhookRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.webhooks.DeliveryState;
import org.donordata.domain.webhooks.WebhookSecret;
import org.donordata.domain.webhooks.WebhookUrl;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;

/**
 * Webhook endpoints in {@code webhook_endpoints}: the owner's settings, and the delivery state that deliverers store
 * under their lease. Instants are kept to the microsecond, as every database keeps them. Every write (the owner's
 * create, modify and remove, the deliverers' leases and where delivery stands) goes through the node's writes, as the
 * donors' do: on SQLite and MariaDB they then ride in the one writer's shared commits instead of each taking the
 * database's write lock, and a sync, of its own.
 */
public final class SqlWebhookRepository implements WebhookRepository {

    /** What the API shows of a failure is short; an adapter's reason is cut to what the column holds. */
    private static final int MAX_TEXT = 200;

    private final DSLContext dsl;
    private final Writes writes;
    private final DatabaseKind kind;
    private final DonorRepository donors;

    /** @param donors where a new endpoint's delivery starts: after its owner's latest change */
    public SqlWebhookRepository(DSLContext dsl, DatabaseKind kind, Writes writes, DonorRepository donors) {
        this.dsl = dsl;
        this.writes = writes;
        this.kind = kind;
        this.donors = donors;
    }

    @Override
    public Optional<WebhookEndpoint> create(ApplicationId owner, NewEndpoint endpoint, int limit, Instant now) {
        // Read before the write, on a connection of its own and without holding one: the write then needs no second
        // connection while it holds the write lock (which stalled every application when creates ran at once). A
        // change committed meanwhile is delivered, never one lost.
        ChangePosition start = donors.latestChange(owner);
        return writes.write(tx -> {
            ApplicationStorage.lockOwner(tx, kind, owner);
            if (tx.fetchCount(WEBHOOK_ENDPOINTS, WEBHOOK_ENDPOINTS.APPLICATION_ID.eq(owner.value())) >= limit) {
                return Optional.empty();
            }
            long id = tx.insertInto(WEBHOOK_ENDPOINTS)
                    .set(WEBHOOK_ENDPOINTS.APPLICATION_ID, owner.value())
                    .set(WEBHOOK_ENDPOINTS.URL, endpoint.url().uri().toString())
                    .set(WEBHOOK_ENDPOINTS.DESCRIPTION, endpoint.description())
                    .set(WEBHOOK_ENDPOINTS.SECRET, endpoint.secret().written())
                    .set(WEBHOOK_ENDPOINTS.IGNORE_KEYS, keys(endpoint.ignoreKeys()))
                    .set(WEBHOOK_ENDPOINTS.CREATED_AT, micros(now))
                    .set(WEBHOOK_ENDPOINTS.REVISION, 0L)
                    .set(state(DeliveryState.startingAfter(start)))
                    .returningResult(WEBHOOK_ENDPOINTS.ID)
                    .fetchSingle()
                    .value1();
            return tx.selectFrom(WEBHOOK_ENDPOINTS).where(WEBHOOK_ENDPOINTS.ID.eq(id))
                    .fetchOptional(SqlWebhookRepository::endpoint);
        });
    }

    @Override
    public List<WebhookEndpoint> list(ApplicationId owner) {
        return dsl.selectFrom(WEBHOOK_ENDPOINTS).where(WEBHOOK_ENDPOINTS.APPLICATION_ID.eq(owner.value()))
                .orderBy(WEBHOOK_ENDPOINTS.ID).fetch(SqlWebhookRepository::endpoint);
    }

    @Override
    public Optional<WebhookEndpoint> find(ApplicationId owner, long id) {
        return dsl.selectFrom(WEBHOOK_ENDPOINTS)
                .where(WEBHOOK_ENDPOINTS.APPLICATION_ID.eq(owner.value()), WEBHOOK_ENDPOINTS.ID.eq(id))
                .fetchOptional(SqlWebhookRepository::endpoint);
    }

    @Override
    public boolean update(WebhookEndpoint changed, DeliveryState asRead, boolean setsState) {
        List<Condition> stillAsRead = new ArrayList<>(List.of(WEBHOOK_ENDPOINTS.ID.eq(changed.id()),
                WEBHOOK_ENDPOINTS.APPLICATION_ID.eq(changed.owner().value()),
                WEBHOOK_ENDPOINTS.REVISION.eq(changed.revision())));
        if (setsState) {
            state(asRead).forEach((column, value) -> stillAsRead.add(stillHolds(column, value)));
        }
        return writes.write(tx -> tx.update(WEBHOOK_ENDPOINTS)
                .set(WEBHOOK_ENDPOINTS.URL, changed.url().uri().toString())
                .set(WEBHOOK_ENDPOINTS.DESCRIPTION, changed.description())
                .set(WEBHOOK_ENDPOINTS.SECRET, changed.secret().written())
                .set(WEBHOOK_ENDPOINTS.PREVIOUS_SECRET, changed.previousSecret().map(WebhookSecret::written).orElse(null))
                .set(WEBHOOK_ENDPOINTS.PREVIOUS_SECRET_UNTIL, changed.previousSecretUntil().map(StoredInstantBinding::micros)
                        .orElse(null))
                .set(WEBHOOK_ENDPOINTS.IGNORE_KEYS, keys(changed.ignoreKeys()))
                .set(setsState ? state(changed.state()) : Map.of())
                .set(WEBHOOK_ENDPOINTS.REVISION, changed.revision() + 1)
                .where(stillAsRead)
                .execute() == 1);
    }

    /** The column still holds the value as read (null being a value too). */
    @SuppressWarnings("unchecked")
    private static Condition stillHolds(Field<?> column, Object value) {
        return ((Field<Object>) column).isNotDistinctFrom(value);
    }

    @Override
    public boolean remove(ApplicationId owner, long id) {
        return writes.write(tx -> tx.deleteFrom(WEBHOOK_ENDPOINTS)
                .where(WEBHOOK_ENDPOINTS.APPLICATION_ID.eq(owner.value()), WEBHOOK_ENDPOINTS.ID.eq(id)).execute() == 1);
    }

    @Override
    public List<WebhookEndpoint> enabled() {
        return dsl.selectFrom(WEBHOOK_ENDPOINTS).where(WEBHOOK_ENDPOINTS.DISABLED_REASON.isNull())
                .orderBy(WEBHOOK_ENDPOINTS.ID).fetch(SqlWebhookRepository::endpoint);
    }

    @Override
    public boolean lease(long id, String node, Instant until, Instant now) {
        return writes.write(tx -> tx.update(WEBHOOK_ENDPOINTS)
                .set(WEBHOOK_ENDPOINTS.LEASE_NODE, node)
                .set(WEBHOOK_ENDPOINTS.LEASE_UNTIL, micros(until))
                .where(WEBHOOK_ENDPOINTS.ID.eq(id), WEBHOOK_ENDPOINTS.LEASE_NODE.isNull()
                        .or(WEBHOOK_ENDPOINTS.LEASE_NODE.eq(node))
                        .or(WEBHOOK_ENDPOINTS.LEASE_UNTIL.lt(micros(now))))
                .execute() == 1);
    }

    @Override
    public boolean saveState(long id, long revision, String node, DeliveryState state) {
        return writes.write(tx -> tx.update(WEBHOOK_ENDPOINTS).set(state(state))
                .where(WEBHOOK_ENDPOINTS.ID.eq(id), WEBHOOK_ENDPOINTS.REVISION.eq(revision),
                        WEBHOOK_ENDPOINTS.LEASE_NODE.eq(node))
                .execute() == 1);
    }

    @Override
    public void release(long id, String node) {
        writes.write(tx -> tx.update(WEBHOOK_ENDPOINTS).setNull(WEBHOOK_ENDPOINTS.LEASE_NODE)
                .setNull(WEBHOOK_ENDPOINTS.LEASE_UNTIL)
                .where(WEBHOOK_ENDPOINTS.ID.eq(id), WEBHOOK_ENDPOINTS.LEASE_NODE.eq(node)).execute());
    }

    /** The delivery state's columns, as an update or insert sets them. */
    private static Map<Field<?>, Object> state(DeliveryState state) {
        Map<Field<?>, Object> columns = new LinkedHashMap<>();
        columns.put(WEBHOOK_ENDPOINTS.DELIVERED_CHANGE, state.deliveredThrough().change());
        columns.put(WEBHOOK_ENDPOINTS.DELIVERED_DONOR, state.deliveredThrough().donorId());
        columns.put(WEBHOOK_ENDPOINTS.CAUGHT_UP_CHANGE, state.caughtUpThrough().change());
        columns.put(WEBHOOK_ENDPOINTS.CAUGHT_UP_DONOR, state.caughtUpThrough().donorId());
        columns.put(WEBHOOK_ENDPOINTS.DISABLED_REASON, state.disabledReason().map(SqlWebhookRepository::cut).orElse(null));
        columns.put(WEBHOOK_ENDPOINTS.LAST_SUCCESS_AT, state.lastSuccessAt().map(StoredInstantBinding::micros).orElse(null));
        columns.put(WEBHOOK_ENDPOINTS.LAST_FAILURE_AT, state.lastFailureAt().map(StoredInstantBinding::micros).orElse(null));
        columns.put(WEBHOOK_ENDPOINTS.LAST_FAILURE, state.lastFailure().map(SqlWebhookRepository::cut).orElse(null));
        columns.put(WEBHOOK_ENDPOINTS.CONSECUTIVE_FAILURES, state.consecutiveFailures());
        columns.put(WEBHOOK_ENDPOINTS.FAILING_SINCE, state.failingSince().map(StoredInstantBinding::micros).orElse(null));
        columns.put(WEBHOOK_ENDPOINTS.NEXT_ATTEMPT_AT, state.nextAttemptAt().map(StoredInstantBinding::micros).orElse(null));
        return columns;
    }

    private static WebhookEndpoint endpoint(Record row) {
        DeliveryState state = new DeliveryState(
                new ChangePosition(row.get(WEBHOOK_ENDPOINTS.DELIVERED_CHANGE), row.get(WEBHOOK_ENDPOINTS.DELIVERED_DONOR)),
                new ChangePosition(row.get(WEBHOOK_ENDPOINTS.CAUGHT_UP_CHANGE), row.get(WEBHOOK_ENDPOINTS.CAUGHT_UP_DONOR)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.DISABLED_REASON)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.LAST_SUCCESS_AT)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.LAST_FAILURE_AT)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.LAST_FAILURE)),
                row.get(WEBHOOK_ENDPOINTS.CONSECUTIVE_FAILURES),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.FAILING_SINCE)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.NEXT_ATTEMPT_AT)));
        return new WebhookEndpoint(row.get(WEBHOOK_ENDPOINTS.ID), new ApplicationId(row.get(WEBHOOK_ENDPOINTS.APPLICATION_ID)),
                new WebhookUrl(URI.create(row.get(WEBHOOK_ENDPOINTS.URL))), row.get(WEBHOOK_ENDPOINTS.DESCRIPTION),
                keys(row.get(WEBHOOK_ENDPOINTS.IGNORE_KEYS)), row.get(WEBHOOK_ENDPOINTS.CREATED_AT),
                WebhookSecret.parse(row.get(WEBHOOK_ENDPOINTS.SECRET)),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.PREVIOUS_SECRET)).map(WebhookSecret::parse),
                Optional.ofNullable(row.get(WEBHOOK_ENDPOINTS.PREVIOUS_SECRET_UNTIL)), state,
                row.get(WEBHOOK_ENDPOINTS.REVISION));
    }

    /** Key ids as stored: sorted, space-separated. */
    private static String keys(Set<Long> ids) {
        return ids.stream().sorted().map(String::valueOf).collect(Collectors.joining(" "));
    }

    private static Set<Long> keys(String stored) {
        return stored.isEmpty() ? Set.of()
                : Arrays.stream(stored.split(" ")).map(Long::valueOf).collect(Collectors.toUnmodifiableSet());
    }

    private static String cut(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT - 1) + "…";
    }

}
