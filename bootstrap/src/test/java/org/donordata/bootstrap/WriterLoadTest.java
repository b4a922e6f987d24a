package org.donordata.bootstrap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The writer's load, as webhook deliveries read it: busy when its thread used the processor most of the last moment. */
class WriterLoadTest {

    private final AtomicLong cpu = new AtomicLong();
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final WriterLoad load = new WriterLoad(cpu::get, clock::get);

    private void pass(long millis, long cpuMillis) {
        clock.addAndGet(millis * 1_000_000);
        cpu.addAndGet(cpuMillis * 1_000_000);
        load.sample();
    }

    @Test
    void busyWhileTheWriterUsesTheProcessorMostOfTheTimeAndNotAfter() {
        assertFalse(load.busy(), "nothing measured yet");
        pass(200, 20);
        assertFalse(load.busy(), "a tenth of the time: writes at a steady rate");
        pass(200, 170);
        assertTrue(load.busy(), "writes at capacity");
        pass(200, 90);
        assertFalse(load.busy(), "under half");
    }

    @Test
    void noWriterThreadIsNeverBusy() {
        WriterLoad none = new WriterLoad(() -> 0, clock::get);
        clock.addAndGet(200_000_000);
        none.sample();
        assertFalse(none.busy());
    }
}
