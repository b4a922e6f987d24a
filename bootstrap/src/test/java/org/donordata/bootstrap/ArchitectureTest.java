package org.donordata.bootstrap;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The rules over the production classes of every module (README: bin/test-architecture runs these alone). Plain
 * Jupiter tests rather than ArchUnit's {@code @ArchTest} fields, because Surefire does not count (or report) tests
 * from ArchUnit's own engine.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ArchitectureRules.MAIN_CODE)
            .importPackages("org.donordata");

    @Test
    void ringsAsDrawn() {
        ArchitectureRules.RINGS_AS_DRAWN.check(PRODUCTION);
    }

    @Test
    void domainUsesThePlainJdkOnly() {
        ArchitectureRules.DOMAIN_USES_THE_PLAIN_JDK_ONLY.check(PRODUCTION);
    }

    @Test
    void applicationUsesThePlainJdkAndDomainOnly() {
        ArchitectureRules.APPLICATION_USES_THE_PLAIN_JDK_AND_DOMAIN_ONLY.check(PRODUCTION);
    }

    @Test
    void jooqHikariFlywayAndJdbcBelongToTheSqlAdapter() {
        ArchitectureRules.JOOQ_HIKARI_FLYWAY_AND_JDBC_BELONG_TO_THE_SQL_ADAPTER.check(PRODUCTION);
    }

    @Test
    void helidonBelongsToTheHttpAndWebhooksAdaptersAndBootstrap() {
        ArchitectureRules.HELIDON_BELONGS_TO_THE_HTTP_AND_WEBHOOKS_ADAPTERS_AND_BOOTSTRAP.check(PRODUCTION);
    }

    @Test
    void helidonsClientBelongsToTheWebhooksAdapter() {
        ArchitectureRules.HELIDONS_CLIENT_BELONGS_TO_THE_WEBHOOKS_ADAPTER.check(PRODUCTION);
    }

    @Test
    void jsonpBelongsToTheHttpAndCommandLineAdapters() {
        ArchitectureRules.JSONP_BELONGS_TO_THE_HTTP_AND_COMMAND_LINE_ADAPTERS.check(PRODUCTION);
    }

    @Test
    void commonsCsvBelongsToTheCommandLineAdapter() {
        ArchitectureRules.COMMONS_CSV_BELONGS_TO_THE_COMMAND_LINE_ADAPTER.check(PRODUCTION);
    }

    @Test
    void databasePackagesBelongToTheSqlAdapter() {
        ArchitectureRules.SQL_ADAPTER_INSIDES_STAY_INSIDE_IT.check(PRODUCTION);
    }

    @Test
    void jacksonBelongsToTheHttpAdapter() {
        ArchitectureRules.JACKSON_BELONGS_TO_THE_HTTP_ADAPTER.check(PRODUCTION);
    }

    @Test
    void caffeineBelongsToTheAdapters() {
        ArchitectureRules.CAFFEINE_BELONGS_TO_THE_ADAPTERS.check(PRODUCTION);
    }

    @Test
    void bucket4jBelongsToTheHttpAdapter() {
        ArchitectureRules.BUCKET4J_BELONGS_TO_THE_HTTP_ADAPTER.check(PRODUCTION);
    }

    @Test
    void picocliBelongsToTheCommandLine() {
        ArchitectureRules.PICOCLI_BELONGS_TO_THE_COMMAND_LINE.check(PRODUCTION);
    }
}
