package org.donordata.application.webhooks;

import org.donordata.application.InMemoryApplicationRepository;
import org.donordata.application.InMemoryDonorRepository;

/** The in-memory fake keeps the port's contract, so the tests that use it test against real behaviour. */
class InMemoryWebhookRepositoryTest extends WebhookRepositoryContract {

    @Override
    protected Store openEmptyStore() {
        InMemoryDonorRepository donors = new InMemoryDonorRepository();
        return new Store(donors, new InMemoryApplicationRepository(donors), new InMemoryWebhookRepository(donors));
    }
}
