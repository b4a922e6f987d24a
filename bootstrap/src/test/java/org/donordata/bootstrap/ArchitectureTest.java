package org.donordata.bootstrap;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rules over the production classes of every module. Plain Jupiter tests rather than ArchUnit's
 * {@code @ArchTest} fields, because Surefire does not count (or report) tests from ArchUnit's own engine.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackages("org.donordata");

    @Test
    void domainDependsOnTheJdkOnly() {
        ArchitectureRules.DOMAIN_DEPENDS_ON_THE_JDK_ONLY.check(PRODUCTION);
    }

    @Test
    void applicationDependsOnTheJdkAndDomainOnly() {
        ArchitectureRules.APPLICATION_DEPENDS_ON_THE_JDK_AND_DOMAIN_ONLY.check(PRODUCTION);
    }

    @Test
    void ringsOfTheHexagon() {
        ArchitectureRules.RINGS.check(PRODUCTION);
    }

    @Test
    void onlyTheSqlAdapterTouchesJooqHikariOrJdbc() {
        ArchitectureRules.ONLY_THE_SQL_ADAPTER_TOUCHES_JOOQ_HIKARI_OR_JDBC.check(PRODUCTION);
    }

    @Test
    void onlyTheHttpAdapterAndBootstrapTouchHelidonOrJsonp() {
        ArchitectureRules.ONLY_THE_HTTP_ADAPTER_AND_BOOTSTRAP_TOUCH_HELIDON_OR_JSONP.check(PRODUCTION);
    }
}
