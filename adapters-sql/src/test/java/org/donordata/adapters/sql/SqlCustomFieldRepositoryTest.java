package org.donordata.adapters.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.donordata.application.fields.CustomFieldRepositoryContract;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/** The custom fields port's contract on a fresh database of each of {@link TestDatabases}. */
@OnEveryDatabase
class SqlCustomFieldRepositoryTest extends CustomFieldRepositoryContract {

    @TempDir
    Path temporaryDirectory;

    @Parameter
    TestDatabases.Entry databaseUnderTest;

    private OpenedDatabases databases;

    @Override
    protected Store openEmptyStore() {
        databases = new OpenedDatabases(databaseUnderTest.reused(temporaryDirectory));
        SqlDatabase database = databases.openNode();
        return new Store(database.customFields(), database.donors(), database.applications(), database.trail());
    }

    @Test
    void aChangeThatDoesNotMoveUpdatedAtOnIsRefusedWithNothingStored() {
        CustomField chapter = fields.create(owner, field("chapter", CustomFieldType.TEXT), 100, WEBSITE).field()
                .orElseThrow();
        CustomField relabelled = new CustomField(chapter.id(), "chapter", "Local chapter", CustomFieldType.TEXT,
                List.of(), false, null, false, chapter.createdAt(), chapter.updatedAt());

        assertThrows(IllegalArgumentException.class,
                () -> fields.update(owner, relabelled, chapter.updatedAt(), List.of(), WEBSITE));
        assertEquals(Optional.of(chapter), fields.find(owner, chapter.id()));
    }

    @AfterEach
    void closeDatabases() {
        if (databases != null) {
            databases.close();
        }
    }
}
