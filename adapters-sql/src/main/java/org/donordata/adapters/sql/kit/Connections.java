package org.donordata.adapters.sql.kit;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import javax.sql.DataSource;

import org.jooq.DSLContext;

/** How a database is reached, made ready, read and written, and closed: one role of a {@link DatabaseKind}. */
public interface Connections {

    /** A short name, for the pool's name and messages. */
    String name();

    /** What a JDBC URL of this database looks like, for a message that refuses another. */
    String urlForm();

    /** The Flyway location of this database's migration scripts: the folder named as the database. */
    default String migrations() {
        return "classpath:db/migration/" + name();
    }

    int defaultMaxPoolSize();

    /**
     * Whether the database has room for writes again after writes were refused for want of space (asked by readiness,
     * so that a node out of a load balancer's rotation finds out by itself), given how long ago the last was refused.
     * By default, for a server whose disk this node cannot see: once no write has been refused for {@link #ROOM_QUIET}.
     * A probe cannot tell: a write that needs no new page (a counter's update) succeeds on a full InnoDB data directory
     * while every insert is refused (seen on MariaDB 10.11 on a full tmpfs, StorageTroubleTest), so only a refusal says
     * the disk is full. A node ready again and still refused turns unready at the next refusal.
     */
    default boolean hasRoomToWrite(String jdbcUrl, Duration sinceLastRefused) {
        return sinceLastRefused.compareTo(ROOM_QUIET) >= 0;
    }

    /** How long a server's database must refuse no write for want of space before readiness says it has room. */
    Duration ROOM_QUIET = Duration.ofSeconds(10);

    /** How the repositories reach the database: its reads, its writes, and what a stop closes before the pool. */
    record Access(Reads reads, Writes writes, List<AutoCloseable> closedFirst) {
    }

    /** Makes ready what the pool needs before it connects: by default nothing, a server is there. */
    default void prepare(String jdbcUrl) {
    }

    /**
     * Refuses a database this adapter cannot read as it is, before it is migrated; by default none.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    default void checkOpened(Connection connection) throws SQLException {
    }

    /** The driver's properties for every pooled connection: by default none. */
    default Properties connectionProperties() {
        return new Properties();
    }

    /** Starts this database's reads and writes on the migrated database. */
    Access access(DSLContext dsl, DataSource pool, String jdbcUrl, Duration connectionTimeout);

    /** What a clean stop does before it closes the pool. */
    void beforeClose(DataSource pool);
}
