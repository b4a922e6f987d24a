package org.donordata.bootstrap;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static com.tngtech.archunit.library.plantuml.rules.PlantUmlArchCondition.Configuration.consideringOnlyDependenciesInAnyPackage;
import static com.tngtech.archunit.library.plantuml.rules.PlantUmlArchCondition.adhereToPlantUmlDiagram;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The hexagon's dependency rules. The rings and the arrows between them are the diagram docs/architecture.puml itself;
 * the rules here add what a picture of rings cannot say: which JDK packages the inner rings may use, and which ring
 * owns each library. Every package named here exists (a rule over a missing package checks nothing), and
 * {@link ArchitectureRulesCatchViolationsTest} shows each rule failing on a bad class.
 */
final class ArchitectureRules {

    /**
     * The main code of every module, not its tests: ArchUnit's own option leaves out the test-classes folders, and this
     * also the modules' test jars (the application's, which holds the shared test helpers, is on this module's class
     * path as a jar when Maven runs after the package phase).
     */
    static final ImportOption MAIN_CODE = location -> new ImportOption.DoNotIncludeTests().includes(location)
            && !location.contains("-tests.jar");


    static final String DOMAIN = "org.donordata.domain..";
    static final String APPLICATION = "org.donordata.application..";
    static final String HTTP = "org.donordata.adapters.http..";
    static final String SQL_ROOT = "org.donordata.adapters.sql";
    static final String SQL = SQL_ROOT + "..";
    static final String CLI = "org.donordata.adapters.cli..";
    static final String WEBHOOKS = "org.donordata.adapters.webhooks..";
    static final String BOOTSTRAP = "org.donordata.bootstrap..";

    /** Where the diagram lies, from the bootstrap module, where Maven runs this module's tests. */
    static final Path DIAGRAM = Path.of("..", "docs", "architecture.puml");

    /**
     * What the inner rings may use of the JDK: the language, collections, time, numbers, text, digests and MACs,
     * checksums, charsets and byte buffers (java.nio itself, none of its channels or files). Not I/O, networking,
     * logging, concurrency or JDBC: those belong to adapters.
     */
    private static final String[] PLAIN_JDK = {"java.lang..", "java.util", "java.util.function", "java.util.stream",
        "java.util.regex", "java.time..", "java.math", "java.text", "java.security", "javax.crypto..", "java.util.zip",
        "java.nio", "java.nio.charset"};

    /**
     * java.net's one value the inner rings may hold: a URI (a webhook's address), parsed by the same parser the adapter
     * that connects to it uses, so both read one address alike. Never a socket, a connection or a name look-up.
     */
    private static final DescribedPredicate<JavaClass> URI_VALUE = equivalentTo(URI.class).or(equivalentTo(URISyntaxException.class));

    private ArchitectureRules() {
    }

    /** The rings and the arrows between them, as drawn; a class in no ring of the diagram fails too. */
    static final ArchRule RINGS_AS_DRAWN = classes()
            .should(adhereToPlantUmlDiagram(DIAGRAM, consideringOnlyDependenciesInAnyPackage("org.donordata..")))
            .as("the rings of the hexagon, as docs/architecture.puml draws them");

    static final ArchRule DOMAIN_USES_THE_PLAIN_JDK_ONLY = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat(resideInAnyPackage(PLAIN_JDK).or(URI_VALUE).or(resideInAnyPackage(DOMAIN)))
            .as("the domain depends on the plain JDK only (no I/O, network, logging, concurrency or JDBC)");

    static final ArchRule APPLICATION_USES_THE_PLAIN_JDK_AND_DOMAIN_ONLY = classes()
            .that().resideInAPackage(APPLICATION)
            .should().onlyDependOnClassesThat(resideInAnyPackage(PLAIN_JDK).or(URI_VALUE)
                    .or(resideInAnyPackage(DOMAIN, APPLICATION)))
            .as("the application depends on the plain JDK and the domain only");

    /**
     * What a database does its own way, how each concern is stored, and the kit they share stay inside the SQL adapter:
     * no other ring picks or knows a database, a table or a query. Others reach the adapter through its entry points,
     * the package sql itself (SqlDatabase, DatabaseSettings) and sql.copy (DatabaseCopy). Every other package under
     * sql, a new one too, is inside.
     */
    static final ArchRule SQL_ADAPTER_INSIDES_STAY_INSIDE_IT = noClasses()
            .that(not(resideInAnyPackage(SQL)))
            .should().dependOnClassesThat(DescribedPredicate.describe("a package inside the SQL adapter",
                    (JavaClass used) -> used.getPackageName().startsWith(SQL_ROOT + ".")
                            && !used.getPackageName().equals(SQL_ROOT + ".copy")))
            .as("no other ring uses the SQL adapter's inside packages (only sql and sql.copy)");

    /**
     * No package of any module reaches itself through others: each package can be read, tested and replaced after
     * those it uses. Every package is a slice of its own, so a new one is covered.
     */
    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("org.donordata.(**)").should().beFreeOfCycles()
            // jOOQ generates the schema's classes in two packages that refer to each other: its layout, not ours.
            .ignoreDependency(resideInAPackage(SQL_ROOT + ".schema.."), resideInAPackage(SQL_ROOT + ".schema.."))
            .as("no package cycles in any module");

    static final ArchRule JOOQ_HIKARI_FLYWAY_AND_JDBC_BELONG_TO_THE_SQL_ADAPTER = ownedBy(
            "jOOQ, HikariCP, Flyway, the JDBC drivers and JDBC", new String[] {"org.jooq..", "com.zaxxer.hikari..",
                "org.sqlite..", "org.postgresql..", "org.mariadb..", "org.flywaydb..", "java.sql..", "javax.sql.."}, SQL);

    static final ArchRule HELIDON_BELONGS_TO_THE_HTTP_AND_WEBHOOKS_ADAPTERS_AND_BOOTSTRAP = ownedBy(
            "Helidon", new String[] {"io.helidon.."}, HTTP, WEBHOOKS, BOOTSTRAP);

    /** The one adapter that makes outbound HTTP calls; the API's adapter only answers them. */
    static final ArchRule HELIDONS_CLIENT_BELONGS_TO_THE_WEBHOOKS_ADAPTER = ownedBy(
            "Helidon's WebClient (webhook messages)", new String[] {"io.helidon.webclient.."}, WEBHOOKS);

    /** Requests and NDJSON lines are read with it, and the SQL adapter stores a donor's custom values as JSON. */
    static final ArchRule JSONP_BELONGS_TO_THE_ADAPTERS = ownedBy(
            "JSON-P", new String[] {"jakarta.json..", "org.eclipse.parsson.."}, HTTP, CLI, SQL, BOOTSTRAP);

    /** It writes the responses, and the donors' JSON objects where the database does not (DonorColumns.json). */
    static final ArchRule JACKSON_BELONGS_TO_THE_HTTP_AND_SQL_ADAPTERS = ownedBy(
            "Jackson (the JSON generator)", new String[] {"com.fasterxml.jackson.."}, HTTP, SQL);

    static final ArchRule COMMONS_CSV_BELONGS_TO_THE_COMMAND_LINE_ADAPTER = ownedBy(
            "Commons CSV", new String[] {"org.apache.commons.csv.."}, CLI);

    static final ArchRule CAFFEINE_BELONGS_TO_THE_ADAPTERS = ownedBy(
            "Caffeine (the key cache, the rate limits' state)", new String[] {"com.github.benmanes.caffeine.."},
            HTTP, SQL);

    static final ArchRule BUCKET4J_BELONGS_TO_THE_HTTP_ADAPTER = ownedBy(
            "Bucket4j (rate limits)", new String[] {"io.github.bucket4j.."}, HTTP);

    static final ArchRule PICOCLI_BELONGS_TO_THE_COMMAND_LINE = ownedBy(
            "picocli (the command line)", new String[] {"picocli.."}, CLI, BOOTSTRAP);

    private static ArchRule ownedBy(String library, String[] libraryPackages, String... owners) {
        return noClasses()
                .that(not(resideInAnyPackage(owners)))
                .should().dependOnClassesThat(resideInAnyPackage(libraryPackages))
                .as("only " + String.join(" and ", owners) + " use " + library);
    }
}
