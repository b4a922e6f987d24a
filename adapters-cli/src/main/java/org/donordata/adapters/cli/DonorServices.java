package org.donordata.adapters.cli;

import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;
import org.donordata.application.fields.CustomFieldService;

/** The use cases a command runs on, opened for the command and closed after it (bootstrap opens the database). */
public interface DonorServices extends AutoCloseable {

    DonorService donors();

    /** The application's custom fields: what the files' {@code custom.KEY} columns are. */
    CustomFieldService fields();

    TrailService trail();

    /** Whether an application with this id exists (revoked or not): a command on another is refused before it runs. */
    boolean hasApplication(ApplicationId id);

    @Override
    void close();

    /** Opens the use cases on the configured database; bootstrap's wiring is one. */
    @FunctionalInterface
    interface Opener {
        DonorServices open();
    }
}
