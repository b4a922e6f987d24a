package org.donordata.adapters.sql.consent;

import static org.donordata.adapters.sql.schema.Tables.CONSENT_PURPOSES;
import static org.donordata.adapters.sql.schema.Tables.CONSENT_RECORDS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.PreparedStatements;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.ConsentHistory;
import org.donordata.application.ConsentRecord;
import org.donordata.domain.ConsentChannel;
import org.donordata.domain.ConsentMethod;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.ConsentState;
import org.donordata.domain.ConsentStatus;
import org.donordata.domain.Donor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;

/**
 * Rows of {@code consent_records} and {@code consent_purposes} (V20), and what a donor write does with them
 * (DonorTransaction): each statement rendered once, since recording consent is as frequent as a modify.
 */
public record ConsentRows(DatabaseKind kind, Statement purposeTaken, Statement purposeCount,
        Statement addPurpose, Statement insert, Statement move, Statement state, Statement delete, Statement page,
        Statement pairs) {

    private static final Param<Long> APPLICATION = DSL.param("p_consent_application", Long.class);
    private static final Param<Long> DONOR = DSL.param("p_consent_donor", Long.class);
    private static final Param<Long> TO_DONOR = DSL.param("p_consent_to_donor", Long.class);
    private static final Param<String> CHANNEL = DSL.param("p_consent_channel", String.class);
    private static final Param<String> PURPOSE = DSL.param("p_consent_purpose", String.class);
    private static final Param<String> STATUS = DSL.param("p_consent_status", String.class);
    private static final Param<Instant> GIVEN_AT = DSL.param("p_consent_given_at", CONSENT_RECORDS.GIVEN_AT.getType());
    private static final Param<Instant> RECORDED_AT = DSL.param("p_consent_recorded_at",
            CONSENT_RECORDS.RECORDED_AT.getType());
    private static final Param<String> SOURCE = DSL.param("p_consent_source", String.class);
    private static final Param<String> METHOD = DSL.param("p_consent_method", String.class);
    private static final Param<String> STATEMENT = DSL.param("p_consent_statement", String.class);
    private static final Param<String> ACTOR_TYPE = DSL.param("p_consent_actor_type", String.class);
    private static final Param<Long> ACTOR_KEY = DSL.param("p_consent_actor_key", Long.class);
    private static final Param<String> ACTOR_NAME = DSL.param("p_consent_actor_name", String.class);
    private static final Param<Long> OFFSET = DSL.param("p_consent_offset", Long.class);
    private static final Param<Integer> COUNT = DSL.param("p_consent_count", Integer.class);
    /** The key of the turn that new purposes take (DatabaseKind.lockKey): counted and added one at a time. */
    private static final String PURPOSES_TURN = "consent-purposes";

    private static final List<Field<?>> LISTED = List.of(CONSENT_RECORDS.ID, CONSENT_RECORDS.CHANNEL,
            CONSENT_RECORDS.PURPOSE, CONSENT_RECORDS.STATUS, CONSENT_RECORDS.GIVEN_AT, CONSENT_RECORDS.RECORDED_AT,
            CONSENT_RECORDS.SOURCE, CONSENT_RECORDS.METHOD, CONSENT_RECORDS.STATEMENT, CONSENT_RECORDS.ACTOR_TYPE,
            CONSENT_RECORDS.ACTOR_KEY_ID, CONSENT_RECORDS.ACTOR_NAME);

    public static ConsentRows of(DatabaseKind kind) {
        var renderer = kind.renderer();
        var ofDonor = CONSENT_RECORDS.DONOR_ID.eq(DONOR);
        return new ConsentRows(kind,
                Statement.render(renderer, DSL.selectCount().from(CONSENT_PURPOSES)
                        .where(CONSENT_PURPOSES.APPLICATION_ID.eq(APPLICATION), CONSENT_PURPOSES.PURPOSE.eq(PURPOSE))),
                Statement.render(renderer, DSL.selectCount().from(CONSENT_PURPOSES)
                        .where(CONSENT_PURPOSES.APPLICATION_ID.eq(APPLICATION))),
                Statement.render(renderer, DSL.insertInto(CONSENT_PURPOSES, CONSENT_PURPOSES.APPLICATION_ID,
                        CONSENT_PURPOSES.PURPOSE).values(APPLICATION, PURPOSE)),
                Statement.render(renderer, DSL.insertInto(CONSENT_RECORDS, CONSENT_RECORDS.APPLICATION_ID,
                        CONSENT_RECORDS.DONOR_ID, CONSENT_RECORDS.CHANNEL, CONSENT_RECORDS.PURPOSE,
                        CONSENT_RECORDS.STATUS, CONSENT_RECORDS.GIVEN_AT, CONSENT_RECORDS.RECORDED_AT,
                        CONSENT_RECORDS.SOURCE, CONSENT_RECORDS.METHOD, CONSENT_RECORDS.STATEMENT,
                        CONSENT_RECORDS.ACTOR_TYPE, CONSENT_RECORDS.ACTOR_KEY_ID, CONSENT_RECORDS.ACTOR_NAME)
                        .values(APPLICATION, DONOR, CHANNEL, PURPOSE, STATUS, GIVEN_AT, RECORDED_AT, SOURCE, METHOD,
                                STATEMENT, ACTOR_TYPE, ACTOR_KEY, ACTOR_NAME)),
                Statement.render(renderer, DSL.update(CONSENT_RECORDS).set(CONSENT_RECORDS.DONOR_ID, TO_DONOR)
                        .where(ofDonor)),
                Statement.render(renderer, DSL.select(CONSENT_RECORDS.CHANNEL, CONSENT_RECORDS.PURPOSE,
                        CONSENT_RECORDS.STATUS).from(CONSENT_RECORDS).where(ofDonor)
                        .orderBy(CONSENT_RECORDS.GIVEN_AT, CONSENT_RECORDS.ID)),
                Statement.render(renderer, DSL.deleteFrom(CONSENT_RECORDS).where(ofDonor)),
                Statement.render(renderer, DSL.select(LISTED).from(CONSENT_RECORDS)
                        .where(CONSENT_RECORDS.APPLICATION_ID.eq(APPLICATION), ofDonor)
                        .orderBy(CONSENT_RECORDS.GIVEN_AT, CONSENT_RECORDS.ID)
                        .limit(kind.rowLimit(COUNT)).offset(OFFSET)),
                Statement.render(renderer, DSL.selectDistinct(CONSENT_RECORDS.CHANNEL, CONSENT_RECORDS.PURPOSE)
                        .from(CONSENT_RECORDS).where(CONSENT_RECORDS.APPLICATION_ID.eq(APPLICATION))));
    }

    /** The bindings of {@link #pairs}. */
    public Bindings pairsBindings(ApplicationId owner) {
        return new Bindings(kind).set(APPLICATION, owner.value());
    }

    /** Runs {@link #pairs}, bound: the pairs in key order. */
    public static List<ConsentPair> pairs(PreparedStatement query) throws SQLException {
        List<ConsentPair> pairs = new ArrayList<>();
        try (ResultSet row = query.executeQuery()) {
            while (row.next()) {
                pairs.add(new ConsentPair(ConsentChannel.fromWire(row.getString(1)).orElseThrow(), row.getString(2)));
            }
        }
        pairs.sort(null);
        return pairs;
    }

    /**
     * What a new record of the donor whose id is {@code donorId} is decided on, as columns beside the donor's in the read
     * that holds it (DonorQueries.findForConsent; on PostgreSQL each statement is a round trip in the row's lock): its
     * count of records, the latest given_at of the pair's, and how many of the owner's purposes are the pair's (0 or 1).
     */
    public static List<Field<?>> historyOf(Field<Long> donorId) {
        return List.of(DSL.field(DSL.selectCount().from(CONSENT_RECORDS).where(CONSENT_RECORDS.DONOR_ID.eq(donorId))),
                DSL.field(DSL.select(DSL.max(CONSENT_RECORDS.GIVEN_AT)).from(CONSENT_RECORDS).where(
                        CONSENT_RECORDS.DONOR_ID.eq(donorId), CONSENT_RECORDS.CHANNEL.eq(CHANNEL),
                        CONSENT_RECORDS.PURPOSE.eq(PURPOSE))),
                DSL.field(DSL.selectCount().from(CONSENT_PURPOSES).where(
                        CONSENT_PURPOSES.APPLICATION_ID.eq(APPLICATION), CONSENT_PURPOSES.PURPOSE.eq(PURPOSE))));
    }

    /** The bindings {@link #historyOf} adds to a read's. */
    public Bindings historyBindings(Bindings bindings, ApplicationId owner, ConsentPair pair) {
        return bindings.set(CHANNEL, pair.channel().wireName()).set(PURPOSE, pair.purpose())
                .set(APPLICATION, owner.value());
    }

    /** The donor with the columns of {@link #historyOf}, read from the row's column {@code first} on. */
    public ConsentHistory history(Donor donor, ResultSet row, int first) throws SQLException {
        return new ConsentHistory(donor, row.getLong(first), Optional.ofNullable(kind.instant(row, first + 1)),
                row.getLong(first + 2) > 0);
    }

    /** DonorTransaction.takePurpose: a new purpose counted and added in the owner's turn for them. */
    public boolean takePurpose(DSLContext tx, ApplicationId owner, String purpose, int max) {
        Bindings bindings = new Bindings(kind).set(APPLICATION, owner.value()).set(PURPOSE, purpose);
        // Asked only when the record's history found the purpose not named (ConsentHistory.purposeTaken): so read in
        // the turn, where a write that took it first may have added it meanwhile.
        kind.lockKey(tx, owner.value(), PURPOSES_TURN);
        if (purposeTaken.fetchNumber(tx, bindings) > 0) {
            return true;
        }
        if (purposeCount.fetchNumber(tx, bindings) >= max) {
            return false;
        }
        addPurpose.execute(tx, bindings);
        return true;
    }

    /** Appends a record, stamped {@code now}; its id. */
    public long add(DSLContext tx, ApplicationId owner, long donorId, ConsentRequest request, Actor actor,
            Instant now) {
        Bindings bindings = new Bindings(kind).set(APPLICATION, owner.value()).set(DONOR, donorId)
                .set(CHANNEL, request.pair().channel().wireName()).set(PURPOSE, request.pair().purpose())
                .set(STATUS, request.status().wireName()).set(GIVEN_AT, request.givenAt()).set(RECORDED_AT, now)
                .set(SOURCE, request.source()).set(METHOD, request.method().wireName())
                .set(STATEMENT, request.statement()).set(ACTOR_TYPE, actor.type().wireName())
                .set(ACTOR_KEY, actor.keyId().orElse(null)).set(ACTOR_NAME, actor.name());
        return tx.connectionResult(connection -> {
            PreparedStatement added = PreparedStatements.returningId(connection, insert.sql());
            insert.bind(added, bindings);
            added.executeUpdate();
            return kind.insertedId(tx, added);
        });
    }

    /** Moves the records of one donor to another; the receiver's state from all its records. */
    public ConsentState move(DSLContext tx, long fromDonorId, long toDonorId) {
        move.execute(tx, new Bindings(kind).set(DONOR, fromDonorId).set(TO_DONOR, toDonorId));
        Map<String, ConsentStatus> latest = new HashMap<>();
        tx.connection(connection -> {
            try (ResultSet rows = state.prepared(connection, new Bindings(kind).set(DONOR, toDonorId)).executeQuery()) {
                // By given_at, then id: the last of each pair is its latest.
                while (rows.next()) {
                    latest.put(kind.text(rows, 1) + ":" + kind.text(rows, 2),
                            ConsentStatus.fromWire(kind.text(rows, 3)).orElseThrow());
                }
            }
        });
        return ConsentState.of(latest);
    }

    /** Deletes every record of the donor (its erasure). */
    public void deleteOf(DSLContext tx, long donorId) {
        delete.execute(tx, new Bindings(kind).set(DONOR, donorId));
    }

    /** The bindings of {@link #page}. */
    public Bindings pageBindings(ApplicationId owner, long donorId, long offset, int count) {
        return new Bindings(kind).set(APPLICATION, owner.value()).set(DONOR, donorId).set(OFFSET, offset)
                .set(COUNT, count);
    }

    /** Runs {@link #page}, bound: up to count records. */
    public List<ConsentRecord> records(PreparedStatement query, int count) throws SQLException {
        List<ConsentRecord> records = new ArrayList<>();
        try (ResultSet row = query.executeQuery()) {
            while (records.size() < count && row.next()) {
                long keyId = row.getLong(11);
                Optional<Long> key = row.wasNull() ? Optional.empty() : Optional.of(keyId);
                String actorType = kind.text(row, 10);
                records.add(new ConsentRecord(row.getLong(1),
                        new ConsentPair(ConsentChannel.fromWire(kind.text(row, 2)).orElseThrow(), kind.text(row, 3)),
                        ConsentStatus.fromWire(kind.text(row, 4)).orElseThrow(), kind.instant(row, 5),
                        kind.instant(row, 6), kind.text(row, 7), ConsentMethod.fromWire(kind.text(row, 8)).orElseThrow(),
                        kind.text(row, 9), new Actor(actorType.equals(Actor.Type.KEY.wireName()) ? Actor.Type.KEY
                                : Actor.Type.COMMAND, key, kind.text(row, 12), Optional.empty())));
            }
        }
        return records;
    }
}
