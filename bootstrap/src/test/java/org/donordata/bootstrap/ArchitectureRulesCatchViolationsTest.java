package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.donordata.adapters.http.archfixture.HttpCallingBackIntoSql;
import org.donordata.adapters.sql.archfixture.SqlCallingBackIntoHttp;
import org.donordata.bootstrap.archfixture.BootstrapUsingTheSqlKit;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.donordata.adapters.cli.archfixture.CliUsingHttpAdapter;
import org.donordata.adapters.http.archfixture.HttpSendingWebhooks;
import org.donordata.adapters.http.archfixture.HttpUsingSqlAdapter;
import org.donordata.adapters.sql.archfixture.SqlUsingBootstrapAndJsonp;
import org.donordata.application.archfixture.ApplicationUsingHelidon;
import org.donordata.bootstrap.archfixture.BootstrapUsingADatabasePackage;
import org.donordata.bootstrap.archfixture.BootstrapUsingJdbc;
import org.donordata.bootstrap.archfixture.BootstrapUsingTheDonorTables;
import org.donordata.domain.archfixture.DomainUsingJdbcAndApplication;
import org.donordata.stray.StrayClass;
import org.junit.jupiter.api.Test;

/**
 * Each rule, run over the production classes plus one deliberately bad class, must fail and name that
 * class; a rule that cannot fail would guard nothing.
 */
class ArchitectureRulesCatchViolationsTest {

    @Test
    void theDiagramCatchesAnAdapterUsingAnotherAdapter() {
        assertCaught(ArchitectureRules.RINGS_AS_DRAWN, HttpUsingSqlAdapter.class, "SqlDatabase");
    }

    @Test
    void theDiagramCatchesTheCommandLineAdapterCallingTheHttpAdapter() {
        assertCaught(ArchitectureRules.RINGS_AS_DRAWN, CliUsingHttpAdapter.class, "HttpApi");
    }

    @Test
    void theDiagramCatchesAnAdapterUsingTheCompositionRoot() {
        assertCaught(ArchitectureRules.RINGS_AS_DRAWN, SqlUsingBootstrapAndJsonp.class, "bootstrap.Main");
    }

    @Test
    void theDiagramCatchesAnInnerRingUsingAnOuterOne() {
        assertCaught(ArchitectureRules.RINGS_AS_DRAWN, DomainUsingJdbcAndApplication.class, "ApplicationId");
    }

    @Test
    void theDiagramCatchesAClassOutsideEveryRing() {
        assertCaught(ArchitectureRules.RINGS_AS_DRAWN, StrayClass.class, "is not contained in any component");
    }

    @Test
    void theDomainRuleCatchesJdbcIoNetworkLoggingAndOuterRings() {
        for (String used : new String[] {"java.sql.Connection", "java.nio.file.Path", "java.net.http.HttpClient",
            "java.net.InetAddress", "java.util.logging.Logger", "ApplicationId"}) {
            assertCaught(ArchitectureRules.DOMAIN_USES_THE_PLAIN_JDK_ONLY, DomainUsingJdbcAndApplication.class, used);
        }
    }

    @Test
    void theApplicationRuleCatchesFrameworks() {
        assertCaught(ArchitectureRules.APPLICATION_USES_THE_PLAIN_JDK_AND_DOMAIN_ONLY, ApplicationUsingHelidon.class,
                "io.helidon.http.Status");
    }

    @Test
    void everyLibraryRuleCatchesAnotherRingUsingIt() {
        assertCaught(ArchitectureRules.JOOQ_HIKARI_FLYWAY_AND_JDBC_BELONG_TO_THE_SQL_ADAPTER, HttpUsingSqlAdapter.class,
                "org.jooq.DSLContext");
        assertCaught(ArchitectureRules.JOOQ_HIKARI_FLYWAY_AND_JDBC_BELONG_TO_THE_SQL_ADAPTER, BootstrapUsingJdbc.class,
                "javax.sql.DataSource");
        assertCaught(ArchitectureRules.JSONP_BELONGS_TO_THE_ADAPTERS,
                ApplicationUsingHelidon.class, "jakarta.json.JsonObject");
        assertCaught(ArchitectureRules.HELIDON_BELONGS_TO_THE_HTTP_AND_WEBHOOKS_ADAPTERS_AND_BOOTSTRAP,
                ApplicationUsingHelidon.class, "io.helidon.http.Status");
        assertCaught(ArchitectureRules.HELIDON_BELONGS_TO_THE_HTTP_AND_WEBHOOKS_ADAPTERS_AND_BOOTSTRAP,
                CliUsingHttpAdapter.class, "io.helidon.http.Status");
        assertCaught(ArchitectureRules.HELIDONS_CLIENT_BELONGS_TO_THE_WEBHOOKS_ADAPTER,
                HttpSendingWebhooks.class, "io.helidon.webclient.api.WebClient");
        assertCaught(ArchitectureRules.COMMONS_CSV_BELONGS_TO_THE_COMMAND_LINE_ADAPTER,
                HttpUsingSqlAdapter.class, "org.apache.commons.csv.CSVFormat");
        assertCaught(ArchitectureRules.CAFFEINE_BELONGS_TO_THE_ADAPTERS, ApplicationUsingHelidon.class,
                "com.github.benmanes.caffeine.cache.Cache");
        assertCaught(ArchitectureRules.BUCKET4J_BELONGS_TO_THE_HTTP_ADAPTER, SqlUsingBootstrapAndJsonp.class,
                "io.github.bucket4j.Bucket");
        assertCaught(ArchitectureRules.JACKSON_BELONGS_TO_THE_HTTP_AND_SQL_ADAPTERS, ApplicationUsingHelidon.class,
                "com.fasterxml.jackson.core.JsonGenerator");
        assertCaught(ArchitectureRules.PICOCLI_BELONGS_TO_THE_COMMAND_LINE, HttpUsingSqlAdapter.class,
                "picocli.CommandLine");
        assertCaught(ArchitectureRules.SQL_ADAPTER_INSIDES_STAY_INSIDE_IT,
                BootstrapUsingADatabasePackage.class, "SqliteKind");
        assertCaught(ArchitectureRules.SQL_ADAPTER_INSIDES_STAY_INSIDE_IT,
                BootstrapUsingTheDonorTables.class, "DonorQueries");
    }

    @Test
    void theInsidesRuleCatchesAPackageOfTheSqlAdapterNoRuleNames() {
        assertCaught(ArchitectureRules.SQL_ADAPTER_INSIDES_STAY_INSIDE_IT, BootstrapUsingTheSqlKit.class,
                "kit.Statement");
    }

    @Test
    void theCycleRuleCatchesTwoPackagesUsingEachOther() {
        assertCaught(ArchitectureRules.NO_PACKAGE_CYCLES, HttpCallingBackIntoSql.class, "SqlCallingBackIntoHttp",
                SqlCallingBackIntoHttp.class);
    }

    private static void assertCaught(ArchRule rule, Class<?> violator, String expectedInReport,
            Class<?>... accomplices) {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> rule.check(productionPlus(violator, accomplices)),
                rule.getDescription() + " let " + violator.getSimpleName() + " through");
        String report = failure.getMessage();
        assertTrue(report.contains(violator.getName()) && report.contains(expectedInReport),
                "expected the report to name " + violator.getName() + " and " + expectedInReport + ", got:\n" + report);
    }

    private static JavaClasses productionPlus(Class<?> violator, Class<?>... accomplices) {
        return PRODUCTION_AND_VIOLATORS.that(DescribedPredicate.describe("production or " + violator.getSimpleName(),
                javaClass -> !isViolator(javaClass.getPackageName()) || javaClass.isEquivalentTo(violator)
                        || Stream.of(accomplices).anyMatch(javaClass::isEquivalentTo)));
    }

    /** The deliberately bad classes live in test packages named archfixture, and in the stray package. */
    private static boolean isViolator(String packageName) {
        return packageName.endsWith(".archfixture") || packageName.equals("org.donordata.stray");
    }

    // Imported once: importing every module's classes takes seconds.
    private static final JavaClasses PRODUCTION_AND_VIOLATORS = new ClassFileImporter()
            .withImportOption(location -> ArchitectureRules.MAIN_CODE.includes(location)
                    || location.contains("/archfixture/") || location.contains("/org/donordata/stray/"))
            .importPackages("org.donordata");
}
