package org.donordata.adapters.sql;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * A test class run once on each of {@link TestDatabases#ALL}, named by the database, its runs beside the other
 * classes' (JUnit 5.13 would run a class template on one thread, after the others: the parent pom says why). The
 * class takes its database in a field {@code @Parameter TestDatabases.Entry databaseUnderTest}.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ParameterizedClass(name = "{0}")
@FieldSource("org.donordata.adapters.sql.TestDatabases#ALL")
public @interface OnEveryDatabase {
}
