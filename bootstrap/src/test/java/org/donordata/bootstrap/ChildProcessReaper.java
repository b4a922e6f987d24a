package org.donordata.bootstrap;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * No process a test started outlives the test JVM: service JVMs, a killed import, a MariaDB server, the linters, the
 * browser. Each test closes its own with try-with-resources; this catches what a failed assertion or a crash between
 * start and close left running, at the plan's end and, should the JVM end another way, in a shutdown hook.
 * Registered through META-INF/services.
 */
public final class ChildProcessReaper implements TestExecutionListener {

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcessReaper::destroyChildren, "child-process-reaper"));
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        destroyChildren();
    }

    /** Every process below this JVM, grandchildren included (a killed child's own would be adopted by init). */
    static void destroyChildren() {
        ProcessHandle.current().descendants().toList().forEach(ProcessHandle::destroyForcibly);
    }
}
