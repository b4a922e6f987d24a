package org.donordata.bootstrap;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The hexagon's dependency rules. Every package named here exists (a rule over a missing package checks
 * nothing), and {@link ArchitectureRulesCatchViolationsTest} shows each rule failing on a bad class.
 */
final class ArchitectureRules {

    static final String DOMAIN = "org.donordata.domain..";
    static final String APPLICATION = "org.donordata.application..";
    static final String HTTP = "org.donordata.adapters.http..";
    static final String SQL = "org.donordata.adapters.sql..";
    static final String BOOTSTRAP = "org.donordata.bootstrap..";

    private static final String[] JDBC = {"java.sql..", "javax.sql.."};
    private static final String[] SQL_LIBRARIES = {"org.jooq..", "com.zaxxer.hikari..", "org.sqlite..",
            "org.postgresql..", "org.flywaydb..", "java.sql..", "javax.sql.."};
    private static final String[] HTTP_LIBRARIES = {"io.helidon..", "jakarta.json..", "org.eclipse.parsson.."};

    private ArchitectureRules() {
    }

    static final ArchRule DOMAIN_DEPENDS_ON_THE_JDK_ONLY = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat(resideInAnyPackage("java..", DOMAIN).and(not(resideInAnyPackage(JDBC))))
            .as("the domain depends on the JDK only");

    static final ArchRule APPLICATION_DEPENDS_ON_THE_JDK_AND_DOMAIN_ONLY = classes()
            .that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat(resideInAnyPackage("java..", DOMAIN, APPLICATION).and(not(resideInAnyPackage(JDBC))))
            .as("the application depends on the JDK and the domain only");

    /**
     * Adapters never see each other, only bootstrap sees adapters, nothing sees bootstrap, and every
     * class belongs to one ring, so a stray package fails too.
     */
    static final ArchRule RINGS = layeredArchitecture()
            .consideringOnlyDependenciesInAnyPackage("org.donordata..")
            .layer("Domain").definedBy(DOMAIN)
            .layer("Application").definedBy(APPLICATION)
            .layer("Http").definedBy(HTTP)
            .layer("Sql").definedBy(SQL)
            .layer("Bootstrap").definedBy(BOOTSTRAP)
            .whereLayer("Bootstrap").mayNotBeAccessedByAnyLayer()
            .whereLayer("Http").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Sql").mayOnlyBeAccessedByLayers("Bootstrap")
            .whereLayer("Application").mayOnlyBeAccessedByLayers("Http", "Sql", "Bootstrap")
            .whereLayer("Domain").mayOnlyBeAccessedByLayers("Application", "Http", "Sql", "Bootstrap")
            .ensureAllClassesAreContainedInArchitecture()
            .as("the rings of the hexagon");

    static final ArchRule ONLY_THE_SQL_ADAPTER_TOUCHES_JOOQ_HIKARI_OR_JDBC = noClasses()
            .that(not(resideInAPackage(SQL)))
            .should().dependOnClassesThat(resideInAnyPackage(SQL_LIBRARIES))
            .as("only adapters-sql touches jOOQ, HikariCP, Flyway or JDBC");

    static final ArchRule ONLY_THE_HTTP_ADAPTER_AND_BOOTSTRAP_TOUCH_HELIDON_OR_JSONP = noClasses()
            .that(not(resideInAnyPackage(HTTP, BOOTSTRAP)))
            .should().dependOnClassesThat(resideInAnyPackage(HTTP_LIBRARIES))
            .as("only adapters-http (and bootstrap, to start the server) touch Helidon or JSON-P");
}
