package org.donordata.adapters.sql.kit;

import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.jooq.Binding;
import org.jooq.BindingGetResultSetContext;
import org.jooq.BindingGetSQLInputContext;
import org.jooq.BindingGetStatementContext;
import org.jooq.BindingRegisterContext;
import org.jooq.BindingSQLContext;
import org.jooq.BindingSetSQLOutputContext;
import org.jooq.BindingSetStatementContext;
import org.jooq.Converter;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * How jOOQ binds and reads every timestamp column (the generated tables use it, see the pom): as the database's
 * {@link DatabaseKind} stores and reads an instant, the same way the rendered statements do. jOOQ's own binding writes
 * a timestamp with its offset as text, which MariaDB's DATETIME refuses, and the driver would shift an
 * OffsetDateTime into the JVM's time zone.
 */
public final class StoredInstantBinding implements Binding<OffsetDateTime, Instant> {

    /** The instant as every database keeps it: to the microsecond, so that what is read back equals what was written. */
    public static Instant micros(Instant instant) {
        return instant.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    private static final Converter<OffsetDateTime, Instant> CONVERTER = Converter.ofNullable(OffsetDateTime.class,
            Instant.class, OffsetDateTime::toInstant, instant -> instant.atOffset(ZoneOffset.UTC));

    @Override
    public Converter<OffsetDateTime, Instant> converter() {
        return CONVERTER;
    }

    @Override
    public void sql(BindingSQLContext<Instant> ctx) {
        if (ctx.render().paramType() == ParamType.INLINED) {
            ctx.render().visit(ctx.value() == null ? DSL.inline((Object) null)
                    : DSL.inline(DatabaseKind.carriedBy(ctx.configuration()).stored(ctx.value())));
        } else {
            ctx.render().sql(ctx.variable());
        }
    }

    @Override
    public void set(BindingSetStatementContext<Instant> ctx) throws SQLException {
        ctx.statement().setObject(ctx.index(),
                ctx.value() == null ? null : DatabaseKind.carriedBy(ctx.configuration()).stored(ctx.value()));
    }

    @Override
    public void get(BindingGetResultSetContext<Instant> ctx) throws SQLException {
        ctx.value(DatabaseKind.carriedBy(ctx.configuration()).instant(ctx.resultSet(), ctx.index()));
    }

    // Stored procedures and user-defined types: none in this schema.
    @Override
    public void register(BindingRegisterContext<Instant> ctx) {
        throw new UnsupportedOperationException("no procedure returns a timestamp here");
    }

    @Override
    public void set(BindingSetSQLOutputContext<Instant> ctx) {
        throw new UnsupportedOperationException("no user-defined type holds a timestamp here");
    }

    @Override
    public void get(BindingGetStatementContext<Instant> ctx) {
        throw new UnsupportedOperationException("no procedure returns a timestamp here");
    }

    @Override
    public void get(BindingGetSQLInputContext<Instant> ctx) {
        throw new UnsupportedOperationException("no user-defined type holds a timestamp here");
    }
}
