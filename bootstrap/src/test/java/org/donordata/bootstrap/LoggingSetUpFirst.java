package org.donordata.bootstrap;

import io.helidon.logging.common.LogConfig;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Sets logging up as the service does, once, before any test of this JVM runs. Helidon reads the logging set-up at the
 * first server start of a JVM, and reading it takes every handler off every logger: a test that captured a log
 * (LogCapture) before that start, in whichever order the classes run, would lose its capture.
 */
public final class LoggingSetUpFirst implements TestExecutionListener {

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        LogConfig.configureRuntime();
    }
}
