package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.donordata.adapters.http.archfixture.HttpUsingSqlAdapter;
import org.donordata.adapters.sql.archfixture.SqlUsingBootstrapAndJsonp;
import org.donordata.application.archfixture.ApplicationUsingHelidon;
import org.donordata.bootstrap.archfixture.BootstrapUsingJdbc;
import org.donordata.domain.archfixture.DomainUsingJdbcAndApplication;
import org.donordata.stray.StrayClass;
import org.junit.jupiter.api.Test;

/**
 * Each rule, run over the production classes plus one deliberately bad class, must fail and name that
 * class; a rule that cannot fail would guard nothing.
 */
class ArchitectureRulesCatchViolationsTest {

    @Test
    void domainRuleCatchesJdbcAndOuterRings() {
        assertCaught(ArchitectureRules.DOMAIN_DEPENDS_ON_THE_JDK_ONLY, DomainUsingJdbcAndApplication.class, "java.sql.Connection");
        assertCaught(ArchitectureRules.DOMAIN_DEPENDS_ON_THE_JDK_ONLY, DomainUsingJdbcAndApplication.class, "ApplicationId");
    }

    @Test
    void applicationRuleCatchesFrameworks() {
        assertCaught(ArchitectureRules.APPLICATION_DEPENDS_ON_THE_JDK_AND_DOMAIN_ONLY, ApplicationUsingHelidon.class, "io.helidon.http.Status");
    }

    @Test
    void ringsCatchAnAdapterUsingAnotherAdapter() {
        assertCaught(ArchitectureRules.RINGS, HttpUsingSqlAdapter.class, "SqlDatabase");
    }

    @Test
    void ringsCatchAnAdapterUsingTheCompositionRoot() {
        assertCaught(ArchitectureRules.RINGS, SqlUsingBootstrapAndJsonp.class, "bootstrap.Main");
    }

    @Test
    void ringsCatchAnInnerRingUsingAnOuterOne() {
        assertCaught(ArchitectureRules.RINGS, DomainUsingJdbcAndApplication.class, "ApplicationId");
    }

    @Test
    void ringsCatchAClassOutsideEveryRing() {
        assertCaught(ArchitectureRules.RINGS, StrayClass.class, StrayClass.class.getName());
    }

    @Test
    void onlyTheSqlAdapterMayTouchJooqOrJdbc() {
        assertCaught(ArchitectureRules.ONLY_THE_SQL_ADAPTER_TOUCHES_JOOQ_HIKARI_OR_JDBC, HttpUsingSqlAdapter.class, "org.jooq.DSLContext");
        assertCaught(ArchitectureRules.ONLY_THE_SQL_ADAPTER_TOUCHES_JOOQ_HIKARI_OR_JDBC, BootstrapUsingJdbc.class, "javax.sql.DataSource");
    }

    @Test
    void onlyTheHttpAdapterAndBootstrapMayTouchHelidonOrJsonp() {
        assertCaught(ArchitectureRules.ONLY_THE_HTTP_ADAPTER_AND_BOOTSTRAP_TOUCH_HELIDON_OR_JSONP, SqlUsingBootstrapAndJsonp.class, "jakarta.json.JsonObject");
        assertCaught(ArchitectureRules.ONLY_THE_HTTP_ADAPTER_AND_BOOTSTRAP_TOUCH_HELIDON_OR_JSONP, ApplicationUsingHelidon.class, "io.helidon.http.Status");
    }

    private static void assertCaught(ArchRule rule, Class<?> violator, String expectedInReport) {
        AssertionError failure = assertThrows(AssertionError.class, () -> rule.check(productionPlus(violator)),
                rule.getDescription() + " let " + violator.getSimpleName() + " through");
        String report = failure.getMessage();
        assertTrue(report.contains(violator.getName()) && report.contains(expectedInReport),
                "expected the report to name " + violator.getName() + " and " + expectedInReport + ", got:\n" + report);
    }

    private static JavaClasses productionPlus(Class<?> violator) {
        return PRODUCTION_AND_VIOLATORS.that(DescribedPredicate.describe("production or " + violator.getSimpleName(),
                javaClass -> !isViolator(javaClass.getPackageName()) || javaClass.isEquivalentTo(violator)));
    }

    /** The deliberately bad classes live in test packages named archfixture, and in the stray package. */
    private static boolean isViolator(String packageName) {
        return packageName.endsWith(".archfixture") || packageName.equals("org.donordata.stray");
    }

    // Imported once: importing every module's classes takes seconds.
    private static final JavaClasses PRODUCTION_AND_VIOLATORS = new ClassFileImporter()
            .withImportOption(location -> new ImportOption.DoNotIncludeTests().includes(location)
                    || location.contains("/archfixture/") || location.contains("/org/donordata/stray/"))
            .importPackages("org.donordata");
}
