package org.donordata.application;

/**
 * The in-memory trail keeps the port's contract: the donor store's records and, through the application store that
 * shares its trail, the keys' events, in one order as a database's one table holds them.
 */
class InMemoryTrailTest extends TrailContract {

    @Override
    protected Store openEmptyStore() {
        InMemoryDonorRepository donors = new InMemoryDonorRepository();
        return new Store(donors, new InMemoryApplicationRepository(donors), donors);
    }
}
