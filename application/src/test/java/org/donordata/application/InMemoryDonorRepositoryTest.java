package org.donordata.application;

/** The in-memory fake keeps the port's contract, so tests that use it test against real behaviour. */
class InMemoryDonorRepositoryTest extends DonorMergeContract {

    private long applications;

    @Override
    protected DonorRepository openEmptyStore() {
        return new InMemoryDonorRepository();
    }

    @Override
    protected AuditTrail trailOf() {
        return (InMemoryDonorRepository) donors;
    }

    @Override
    protected ApplicationId newApplication(String name) {
        return new ApplicationId(++applications);
    }
}
