package org.donordata.bootstrap;

import java.util.Map;

import org.donordata.adapters.cli.DonorServices;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorService;
import org.donordata.application.TrailService;
import org.donordata.application.fields.CustomFieldService;

/** The command-line adapter's use cases on the database the environment configures, closed with the command. */
record DonorServicesOf(Wiring wiring) implements DonorServices {

    static DonorServices open(Map<String, String> env) {
        return new DonorServicesOf(Wiring.open(Settings.fromEnvironment(env)));
    }

    @Override
    public DonorService donors() {
        return wiring.donors();
    }

    @Override
    public CustomFieldService fields() {
        return wiring.fields();
    }

    @Override
    public TrailService trail() {
        return wiring.trail();
    }

    @Override
    public boolean hasApplication(ApplicationId id) {
        return wiring.applications().list().stream().anyMatch(application -> application.id().equals(id));
    }

    @Override
    public void close() {
        wiring.close();
    }
}
