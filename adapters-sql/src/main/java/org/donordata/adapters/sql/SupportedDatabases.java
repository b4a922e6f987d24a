package org.donordata.adapters.sql;

import java.util.List;

import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.mariadb.MariadbKind;
import org.donordata.adapters.sql.postgres.PostgresKind;
import org.donordata.adapters.sql.sqlite.SqliteKind;
import org.jooq.SQLDialect;
import org.jooq.tools.jdbc.JDBCUtils;

/** The databases this adapter supports, and the one place that picks one, by its JDBC URL. */
public final class SupportedDatabases {

    /** Every database this adapter supports: a new one is one more entry (docs/architecture.md, "Adding a database"). */
    public static final List<DatabaseKind> ALL = List.of(SqliteKind.INSTANCE, PostgresKind.INSTANCE,
            MariadbKind.INSTANCE);

    private SupportedDatabases() {
    }

    /** @throws IllegalArgumentException for a URL of any other database, or no JDBC URL at all */
    public static DatabaseKind forUrl(String jdbcUrl) {
        SQLDialect family = jdbcUrl == null ? SQLDialect.DEFAULT : JDBCUtils.dialect(jdbcUrl).family();
        for (DatabaseKind kind : ALL) {
            if (kind.dialect() == family) {
                return kind;
            }
        }
        List<String> forms = ALL.stream().map(DatabaseKind::urlForm).toList();
        throw new IllegalArgumentException("Unsupported database URL: expected "
                + String.join(", ", forms.subList(0, forms.size() - 1)) + " or " + forms.getLast() + ".");
    }
}
