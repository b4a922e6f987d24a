package org.donordata.application;

/** The in-memory fake keeps the port's contract, so tests that use it test against real behaviour. */
class InMemoryApplicationRepositoryTest extends ApplicationRepositoryContract {

    @Override
    protected ApplicationRepository openEmptyStore() {
        return new InMemoryApplicationRepository();
    }
}
