package org.donordata.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class, or a test, that must not run beside another: it loads the machine, reads a log or a metric the whole
 * JVM shares, or follows PostgreSQL's feed, which any transaction still open on the server holds back (a contract's
 * test that reads the feed says so on itself, so the rest of its class still runs beside others). Test classes
 * otherwise run three at a time; surefire runs these afterwards, one at a time (the parent pom's "alone" execution).
 * Alone within its module: bin/test builds two modules at once, so another module's tests may run meanwhile (none of
 * them use PostgreSQL's feed). Unlike JUnit's {@code @Isolated}, a tag also works on a {@code @ParameterizedClass}.
 * Say why beside it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag("alone")
public @interface RunsAlone {
}
