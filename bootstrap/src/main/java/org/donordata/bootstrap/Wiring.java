package org.donordata.bootstrap;

import java.security.SecureRandom;
import java.time.Clock;

import org.donordata.adapters.http.HttpApi;
import org.donordata.adapters.sql.SqlDatabase;
import org.donordata.application.ApplicationService;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;

/** The object graph: the only place where adapters are plugged into the use cases. */
final class Wiring implements AutoCloseable {

    private final SqlDatabase database;
    private final DonorService donors;
    private final TrailService trail;
    private final ApplicationService applications;

    private Wiring(SqlDatabase database) {
        this.database = database;
        Clock clock = Clock.systemUTC();
        this.donors = new DonorService(database.donors(), clock);
        this.trail = new TrailService(database.donors(), database.trail());
        this.applications = new ApplicationService(database.applications(), clock, new SecureRandom());
    }

    /** Opens the database (creating and migrating it as needed) and builds the use cases on it. */
    static Wiring open(Settings settings) {
        return new Wiring(SqlDatabase.open(settings.database(), settings.apiKeyCacheLifetime()));
    }

    DonorService donors() {
        return donors;
    }

    TrailService trail() {
        return trail;
    }

    ApplicationService applications() {
        return applications;
    }

    HttpApi httpApi() {
        return new HttpApi(donors, trail, applications, database.changeTokenSecret());
    }

    SqlDatabase database() {
        return database;
    }

    @Override
    public void close() {
        database.close();
    }
}
