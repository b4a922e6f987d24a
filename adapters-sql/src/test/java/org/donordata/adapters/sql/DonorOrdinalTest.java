package org.donordata.adapters.sql;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import org.donordata.application.ApplicationId;
import org.donordata.application.RepositoryWrites;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.Donor;
import org.junit.jupiter.api.Test;

/**
 * Pages are found by ordinal (the V3 migration): the k-th donor of an application in id order has ordinal k, so a page
 * at any offset is exactly the page an id-ordered offset would give. Run on every database of {@link TestDatabases}.
 */
@OnEveryDatabase
class DonorOrdinalTest extends DonorRepositoryTestBase {

    @Test
    void ordinalsNumberEachApplicationsDonorsInIdOrderWithoutGaps() {
        for (int i = 0; i < 12; i++) {
            new RepositoryWrites(donors).insert(i % 3 == 0 ? otherOwner : owner, person("Donor " + i, null), CREATED);
        }

        assertOrdinalsFollowIds(owner);
        assertOrdinalsFollowIds(otherOwner);
    }

    @Test
    void everyOffsetGivesTheDonorsAnIdOrderedOffsetWould() {
        List<Long> ownIds = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            Donor stored = new RepositoryWrites(donors).insert(i % 4 == 1 ? otherOwner : owner, person("Donor " + i, null), CREATED);
            if (i % 4 != 1) {
                ownIds.add(stored.id());
            }
        }

        for (int offset = 0; offset <= ownIds.size() + 1; offset++) {
            List<Long> expected = ownIds.subList(Math.min(offset, ownIds.size()), Math.min(offset + 7, ownIds.size()));
            assertEquals(expected, donors.list(owner, DonorFilter.NONE, offset, 7).stream().map(Donor::id).toList(), "offset " + offset);
        }
        assertEquals(List.of(), donors.list(owner, DonorFilter.NONE, Long.MAX_VALUE, 30));
    }

    /** On PostgreSQL from several pools, as several nodes would; on SQLite through its one writer. */
    @Test
    void concurrentCreatesOnTwoNodesStillNumberInIdOrder() throws Exception {
        try (SqlDatabase secondNode = openSecondNode(); ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Callable<Long>> creates = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                SqlDatabase node = i % 2 == 0 ? database : secondNode;
                String name = "Racer " + i;
                creates.add(() -> new RepositoryWrites(node.donors()).insert(owner, person(name, null), CREATED).id());
            }
            for (Future<Long> created : threads.invokeAll(creates)) {
                created.get();
            }
        }

        assertOrdinalsFollowIds(owner);
        assertEquals(40, donors.list(owner, DonorFilter.NONE, 10, 30).size() + 10);
    }

    /** Migration V3 numbers the donors a database already holds, per application in id order. */
    private void assertOrdinalsFollowIds(ApplicationId application) {
        numberEveryDonor(database);
        List<Long> byId = ordinals(database, application);
        assertEquals(LongStream.rangeClosed(1, byId.size()).boxed().toList(), byId);
        assertEquals(database.dsl().fetchCount(DONORS, DONORS.APPLICATION_ID.eq(application.value())), byId.size());
    }

    /** The ordinals of the application's donors, in id order. */
    private static List<Long> ordinals(SqlDatabase database, ApplicationId application) {
        return database.dsl().select(DONOR_ORDINALS.ORDINAL).from(DONOR_ORDINALS)
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(application.value())).orderBy(DONOR_ORDINALS.DONOR_ID)
                .fetch(DONOR_ORDINALS.ORDINAL);
    }
}
