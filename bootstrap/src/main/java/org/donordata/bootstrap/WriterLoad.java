package org.donordata.bootstrap;

import java.util.function.LongSupplier;

/**
 * Whether the node's one writer was busy for most of the last moment: the share of the time between two samples that
 * its thread spent on the processor. Every write waits for that thread, so when it is this busy the writes are at
 * their capacity, and work beside them that slows it (webhook deliveries: their sends and their receivers' answers
 * take the kernel's and the caches' time even at the lowest priority) makes room (WebhookDeliverers). Its time waiting
 * for the disk's sync is not counted: a slow disk is no reason to hold messages back.
 */
final class WriterLoad {

    /** Busier than this share of the time, the writer is taken to be at capacity. */
    static final double BUSY = 0.5;

    private final LongSupplier writerCpuNanos;
    private final LongSupplier clockNanos;
    private long sampledCpu;
    private long sampledAt;
    private volatile boolean busy;

    /**
     * @param writerCpuNanos the writer thread's processor time so far; always 0 where there is no such thread
     * @param clockNanos a monotonic clock ({@code System::nanoTime})
     */
    WriterLoad(LongSupplier writerCpuNanos, LongSupplier clockNanos) {
        this.writerCpuNanos = writerCpuNanos;
        this.clockNanos = clockNanos;
        this.sampledCpu = writerCpuNanos.getAsLong();
        this.sampledAt = clockNanos.getAsLong();
    }

    /** Takes a sample; {@link #busy()} then tells of the time since the one before. Called by one thread. */
    void sample() {
        long cpu = writerCpuNanos.getAsLong();
        long at = clockNanos.getAsLong();
        if (at > sampledAt) {
            busy = cpu - sampledCpu > BUSY * (at - sampledAt);
        }
        sampledCpu = cpu;
        sampledAt = at;
    }

    boolean busy() {
        return busy;
    }
}
