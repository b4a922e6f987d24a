package org.donordata.application.fields;

import org.donordata.application.InMemoryApplicationRepository;
import org.donordata.application.InMemoryDonorRepository;

class InMemoryCustomFieldRepositoryTest extends CustomFieldRepositoryContract {

    @Override
    protected Store openEmptyStore() {
        InMemoryDonorRepository donors = new InMemoryDonorRepository();
        return new Store(new InMemoryCustomFieldRepository(donors), donors, new InMemoryApplicationRepository(donors),
                donors);
    }
}
