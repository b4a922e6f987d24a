package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.donordata.application.DonorRepository;
import org.donordata.domain.ChangePosition;
import org.donordata.testing.RunsAlone;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;

/**
 * Every test of the port contracts that reads the change feed runs alone ({@link RunsAlone} says why: on
 * PostgreSQL a transaction still open anywhere on the server, another class's, holds the feed back). A test missing the
 * tag passes almost always and fails when another class's transaction happens to be open, so the tag is checked here
 * over the contracts' classes rather than left to that chance. A read in a lambda counts for the test that holds it.
 */
class FeedReadingTestsRunAloneTest {

    /** The port's methods that read the feed: those taking or giving a position in it. */
    private static final Set<String> FEED_READS = Arrays.stream(DonorRepository.class.getMethods())
            .filter(method -> method.toGenericString().contains(ChangePosition.class.getName()))
            .map(Method::getName).collect(Collectors.toSet());

    private static final JavaClasses CONTRACTS = new ClassFileImporter()
            .withImportOption(location -> location.contains("-tests.jar") || location.contains("/test-classes/"))
            .importPackages("org.donordata.application");

    @Test
    void everyContractTestThatReadsTheFeedRunsAlone() {
        List<JavaClass> contracts = CONTRACTS.stream().filter(type -> type.getSimpleName().endsWith("Contract"))
                .toList();
        assertTrue(contracts.stream().anyMatch(type -> readsOfTheFeed(type).findAny().isPresent()),
                "no contract reads the feed: the import found none of their classes");
        Set<String> notAlone = new TreeSet<>();
        for (JavaClass contract : contracts) {
            if (runsAlone(contract)) {
                continue;
            }
            readsOfTheFeed(contract).map(call -> enclosingTest(contract, call))
                    .filter(test -> test == null || !test.isAnnotatedWith(RunsAlone.class))
                    .forEach(test -> notAlone.add(contract.getSimpleName() + "." + (test == null ? "?" : test.getName())));
        }
        assertEquals(Set.of(), notAlone, "tests that read the feed without @RunsAlone (a helper reading it shows as ?)");
    }

    private static Stream<JavaMethodCall> readsOfTheFeed(JavaClass contract) {
        return contract.getMethodCallsFromSelf().stream()
                .filter(call -> call.getTargetOwner().isAssignableTo(DonorRepository.class)
                        && FEED_READS.contains(call.getName()));
    }

    /**
     * The test method (any of JUnit's kinds) a call is in, or in a lambda of: {@code lambda$NAME$N} is compiled from
     * the method NAME.
     */
    private static JavaMethod enclosingTest(JavaClass contract, JavaMethodCall call) {
        String name = call.getOrigin().getName();
        if (name.startsWith("lambda$")) {
            name = name.substring("lambda$".length(), name.lastIndexOf('$'));
        }
        String method = name;
        return contract.getMethods().stream()
                .filter(candidate -> candidate.getName().equals(method) && candidate.isMetaAnnotatedWith(Testable.class))
                .findFirst().orElse(null);
    }

    private static boolean runsAlone(JavaClass contract) {
        return contract.isAnnotatedWith(RunsAlone.class) || contract.getAllRawSuperclasses().stream()
                .anyMatch(superclass -> superclass.isAnnotatedWith(RunsAlone.class));
    }
}
