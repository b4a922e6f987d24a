package org.donordata.adapters.sql;

import java.util.ArrayList;
import java.util.List;

/** A test database and every SqlDatabase (node) opened on it, closed and discarded together. */
final class OpenedDatabases implements AutoCloseable {

    private final TestDatabase testDatabase;
    private final List<SqlDatabase> nodes = new ArrayList<>();

    OpenedDatabases(TestDatabase testDatabase) {
        this.testDatabase = testDatabase;
    }

    /** Another node on the database: a pool, caches and writer of its own, as a second service instance has. */
    SqlDatabase openNode() {
        SqlDatabase node = SqlDatabase.open(testDatabase.settings());
        nodes.add(node);
        return node;
    }

    SqlDatabase first() {
        return nodes.getFirst();
    }

    @Override
    public void close() {
        nodes.forEach(SqlDatabase::close);
        testDatabase.close();
    }
}
