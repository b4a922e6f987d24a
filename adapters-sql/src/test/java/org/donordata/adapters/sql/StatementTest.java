package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.Statement;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;

import org.donordata.adapters.sql.donors.DonorQueries;
import org.donordata.adapters.sql.postgres.PostgresKind;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

class StatementTest {

    private static final DSLContext POSTGRES = DSL.using(SQLDialect.POSTGRES);

    @Test
    void aParameterStandsAtEachOfItsPlacesAndALiteralsColonIsNoParameter() {
        Statement statement = Statement.render(POSTGRES, DSL.select(
                DSL.field("to_char({0}, 'HH24:MI:SS')", String.class, DonorQueries.UPDATED),
                DSL.field("cast({0} as text)::text", String.class, DonorQueries.ID))
                .where(DSL.field("x", Long.class).eq(DonorQueries.ID)));

        assertEquals(List.of("p_updated", "p_id", "p_id"), statement.places());
        assertEquals(3, statement.sql().chars().filter(c -> c == '?').count(), statement.sql());
    }

    @Test
    void aValueThatIsNeitherInlinedNorNamedIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> Statement.render(POSTGRES, DSL.select(DSL.val(42L))));
    }

    @Test
    void valuesAreBoundByTheirParameterAsTheDatabaseStoresThem() throws Exception {
        Statement statement = Statement.render(POSTGRES, DSL.select(DonorQueries.ID, DonorQueries.UPDATED));
        PreparedStatement prepared = Mockito.mock(PreparedStatement.class);
        Instant now = Instant.parse("2024-05-01T09:30:00.123456Z");

        statement.bind(prepared, new Bindings(PostgresKind.INSTANCE).set(DonorQueries.ID, 7L)
                .set(DonorQueries.UPDATED, now));

        Mockito.verify(prepared).setObject(1, 7L);
        Mockito.verify(prepared).setObject(2, PostgresKind.INSTANCE.stored(now));
    }

    @Test
    void aParameterWithoutAValueIsRefusedBeforeTheStatementRuns() {
        Statement statement = Statement.render(POSTGRES, DSL.select(DonorQueries.ID));

        assertThrows(IllegalArgumentException.class, () -> statement.bind(Mockito.mock(PreparedStatement.class),
                new Bindings(PostgresKind.INSTANCE)));
    }
}
