package org.donordata.adapters.sql.kit;

import javax.sql.DataSource;

import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * What a database does its own way, and nothing else: each supported database is one value in a package of its own
 * (sqlite, postgres, mariadb), built from the four roles below. A class asks for the role it needs; the kind is handed
 * to it (a constructor, or the jOOQ Configuration for {@link StoredInstantBinding}), never looked up.
 * SupportedDatabases holds the list of supported databases and picks one by the JDBC URL (docs/architecture.md, "One
 * repository, strategies per database"; "Adding a database" lists what a new one needs).
 */
public interface DatabaseKind extends Connections, Dialect, Ordering, DriverFailures {

    /** The key under which a jOOQ Configuration carries its database's kind, for the timestamp binding. */
    String CONFIGURATION_KEY = DatabaseKind.class.getName();

    /** The kind a DSLContext made by {@link #using} carries. */
    static DatabaseKind carriedBy(Configuration configuration) {
        Object kind = configuration.data(CONFIGURATION_KEY);
        if (kind == null) {
            throw new IllegalStateException("a DSLContext made without its database kind (DatabaseKind.using)");
        }
        return (DatabaseKind) kind;
    }

    /** A DSLContext that renders SQL in this database's dialect, carrying this kind for the timestamp binding. */
    default DSLContext renderer() {
        DSLContext renderer = DSL.using(dialect());
        renderer.configuration().data(CONFIGURATION_KEY, this);
        return renderer;
    }

    /** A DSLContext on the pool in this database's dialect, carrying this kind for the timestamp binding. */
    default DSLContext using(DataSource pool) {
        DSLContext dsl = DSL.using(pool, dialect());
        dsl.configuration().data(CONFIGURATION_KEY, this);
        return dsl;
    }
}
