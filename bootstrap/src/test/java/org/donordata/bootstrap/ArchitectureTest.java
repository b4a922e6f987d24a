package org.donordata.bootstrap;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rule of {@link ArchitectureRules} over the production classes of every module (README: bin/test-architecture
 * runs these alone), each found by reflection, so a rule added there is checked without being listed here. Plain
 * Jupiter tests rather than ArchUnit's {@code @ArchTest} fields, because Surefire does not count (or report) tests
 * from ArchUnit's own engine.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ArchitectureRules.MAIN_CODE)
            .importPackages("org.donordata");

    static Stream<Arguments> rules() {
        return Stream.of(ArchitectureRules.class.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && ArchRule.class.isAssignableFrom(field.getType()))
                .map(field -> Arguments.of(field.getName(), rule(field)));
    }

    private static ArchRule rule(Field field) {
        try {
            field.setAccessible(true);
            return (ArchRule) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void holds(String name, ArchRule rule) {
        rule.check(PRODUCTION);
    }
}
