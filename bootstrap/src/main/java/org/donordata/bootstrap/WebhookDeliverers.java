package org.donordata.bootstrap;

import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;

import org.donordata.application.ApplicationId;
import org.donordata.application.webhooks.WebhookDelivery;
import org.donordata.application.webhooks.WebhookEndpoint;

/**
 * This node's deliverers of webhook messages (docs/api.md, "Webhooks"), off the request path: every
 * {@link #TICK} one platform thread reads the enabled endpoints and starts a run for each that has none under way here,
 * each on a thread of its own at the lowest priority ({@link BackgroundThreads}: the requests come first), at most
 * {@link #MAX_RUNS} at once (so at most that many threads and connections out). A run goes on at once while changes
 * wait, except while the node's writer is at its capacity ({@link WriterLoad}): then each endpoint is sent at most
 * {@link #YIELDING_BATCH} messages a tick, and catches up when the writes leave room. The endpoint's lease in the
 * database keeps other nodes off it ({@link WebhookDelivery}), renewed every quarter of the lease while its run is
 * under way; on close, runs under way finish (for a while) and the leases are given up, so another node
 * takes over at once. The outcomes are counted, disablings logged, and each endpoint's oldest undelivered change aged
 * in the metrics.
 */
final class WebhookDeliverers implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(200);
    static final int MAX_RUNS = 32;
    /** What a run sends at most while the writer is at capacity: at most 50 messages a second to each endpoint. */
    static final int YIELDING_BATCH = 10;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final System.Logger LOG = System.getLogger("donors.webhooks");

    private final WebhookDelivery delivery;
    /**
     * How often the leases of the endpoints whose runs are under way are renewed: a message may wait 10 s and more for
     * its answer, which would outlast what a run's own renewal before each message leaves of the lease.
     */
    private final Duration renewEvery;
    private final WriterLoad writerLoad;
    private final Clock clock;
    private final String node = nodeName();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "webhook-deliverers");
        thread.setDaemon(true);
        return thread;
    });
    private final ExecutorService runs = Executors.newCachedThreadPool(new BackgroundThreads("webhook-delivery-"));
    private final Semaphore slots = new Semaphore(MAX_RUNS);
    private final Set<Long> running = ConcurrentHashMap.newKeySet();
    private final Set<Long> leased = ConcurrentHashMap.newKeySet();
    private final Map<Long, Instant> oldestUndelivered = new ConcurrentHashMap<>();
    private final Map<Long, Meter> ages = new ConcurrentHashMap<>();
    /** The application of each endpoint metered here, to learn when it is removed. */
    private final Map<Long, ApplicationId> owners = new ConcurrentHashMap<>();
    private final MeterRegistry registry = Metrics.globalRegistry();
    private final Counter delivered;
    private final Counter failed;
    private final Counter disabled;
    private volatile boolean closed;
    private long renewedAt = System.nanoTime();

    private WebhookDeliverers(WebhookDelivery delivery, Duration lease, WriterLoad writerLoad, Clock clock) {
        this.delivery = delivery;
        this.renewEvery = renewEvery(lease);
        this.writerLoad = writerLoad;
        this.clock = clock;
        this.delivered = outcomes("delivered");
        this.failed = outcomes("failed");
        this.disabled = registry.getOrCreate(Counter.builder("donors.webhooks.disabled")
                .description("Endpoints disabled by their failures or a 410 (each is logged with its reason)"));
    }

    /**
     * Starts delivering; close to stop.
     *
     * @param lease the lease {@code delivery} takes: the deliverers renew it every quarter of it meanwhile
     */
    static WebhookDeliverers start(WebhookDelivery delivery, Duration lease, WriterLoad writerLoad, Clock clock) {
        WebhookDeliverers deliverers = new WebhookDeliverers(delivery, lease, writerLoad, clock);
        deliverers.ticker.scheduleWithFixedDelay(deliverers::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return deliverers;
    }

    /** How often the runs' leases are renewed meanwhile: a quarter of the lease, so that two renewals may fail. */
    static Duration renewEvery(Duration lease) {
        return lease.dividedBy(4);
    }

    private Counter outcomes(String outcome) {
        return registry.getOrCreate(Counter.builder("donors.webhooks.messages")
                .description("Webhook messages sent, by outcome: delivered (answered 2xx) or failed")
                .tags(List.of(Tag.create("outcome", outcome))));
    }

    private void tick() {
        writerLoad.sample();
        boolean renewing = System.nanoTime() - renewedAt >= renewEvery.toNanos();
        if (renewing) {
            renewedAt = System.nanoTime();
            renewRunning();
        }
        try {
            List<WebhookEndpoint> enabled = delivery.enabled();
            // As often as leases are renewed, not every tick: each endpoint metered here and not enabled is looked up.
            if (renewing) {
                forgetRemoved(enabled);
            }
            for (WebhookEndpoint endpoint : enabled) {
                if (closed) {
                    return;
                }
                if (running.add(endpoint.id())) {
                    if (slots.tryAcquire()) {
                        runs.execute(() -> runWhileChangesWait(endpoint));
                    } else {
                        running.remove(endpoint.id());
                    }
                }
            }
        } catch (RuntimeException failure) {
            // The database may be away for a while; the next tick tries again.
            LOG.log(System.Logger.Level.WARNING, "Could not read the webhook endpoints: " + failure.getMessage());
        }
    }

    /**
     * Drops the age of each endpoint metered here that is neither enabled nor stored any more: removed, its changes
     * wait for no one. A disabled one keeps its age, which grows until its owner enables it again.
     */
    private void forgetRemoved(List<WebhookEndpoint> enabled) {
        Set<Long> enabledIds = enabled.stream().map(WebhookEndpoint::id).collect(Collectors.toSet());
        owners.forEach((id, owner) -> {
            if (!enabledIds.contains(id) && !delivery.exists(owner, id)) {
                Meter age = ages.remove(id);
                if (age != null) {
                    registry.remove(age);
                }
                oldestUndelivered.remove(id);
                owners.remove(id);
            }
        });
    }

    private void renewRunning() {
        for (long id : running) {
            try {
                // A renewal may take the lease of a run that had not taken it yet: it is then given up at close too.
                if (delivery.renew(id, node)) {
                    leased.add(id);
                }
            } catch (RuntimeException failure) {
                // The next renewal tries again, well before the lease ends.
                LOG.log(System.Logger.Level.WARNING, "Could not renew the lease of webhook endpoint " + id + ": "
                        + failure.getMessage());
            }
        }
    }

    private void runWhileChangesWait(WebhookEndpoint endpoint) {
        try {
            WebhookEndpoint next = endpoint;
            WebhookDelivery.Run run;
            boolean yielding;
            do {
                yielding = writerLoad.busy();
                run = delivery.run(next, node, yielding ? YIELDING_BATCH : WebhookDelivery.BATCH);
                recorded(run);
                next = run.endpoint();
            } while (run.more() && !closed && !yielding);
        } catch (RuntimeException failure) {
            LOG.log(System.Logger.Level.WARNING, "Delivery to webhook endpoint " + endpoint.id() + " stopped: "
                    + failure.getMessage() + "; it is tried again shortly");
        } finally {
            running.remove(endpoint.id());
            slots.release();
        }
    }

    private void recorded(WebhookDelivery.Run run) {
        if (!run.leased()) {
            return;
        }
        long id = run.endpoint().id();
        leased.add(id);
        owners.put(id, run.endpoint().owner());
        // The age first: a scrape that sees this run's outcomes counted sees its age too.
        run.oldestUndelivered().ifPresentOrElse(at -> oldestUndelivered.put(id, at), () -> oldestUndelivered.remove(id));
        ages.computeIfAbsent(id, unused -> registry.getOrCreate(Gauge.builder("donors.webhooks.undelivered.age.seconds",
                () -> ageSeconds(id)).description("Age of the oldest change not yet delivered to the endpoint (0 when"
                        + " none waits), as this node last saw it").tags(List.of(Tag.create("endpoint",
                                Long.toString(id))))));
        delivered.increment(run.succeeded());
        run.failure().ifPresent(failure -> {
            failed.increment();
            LOG.log(System.Logger.Level.INFO, "Webhook endpoint " + id + " failed: " + failure + "; "
                    + run.endpoint().state().nextAttemptAt().map(at -> "sent again at " + at).orElse("not sent again"));
        });
        run.disabledReason().ifPresent(reason -> {
            disabled.increment();
            LOG.log(System.Logger.Level.WARNING, "Webhook endpoint " + id + " disabled: " + reason
                    + "; its owner can enable it again, and delivery resumes where it stopped");
        });
    }

    private double ageSeconds(long id) {
        Instant oldest = oldestUndelivered.get(id);
        return oldest == null ? 0 : Math.max(0, Duration.between(oldest, clock.instant()).toMillis() / 1000.0);
    }

    /** Stops starting runs, lets those under way finish for a while, and gives up this node's leases. */
    @Override
    public void close() {
        closed = true;
        ticker.shutdownNow();
        runs.shutdown();
        try {
            if (!runs.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                runs.shutdownNow();
            }
        } catch (InterruptedException interrupted) {
            runs.shutdownNow();
            Thread.currentThread().interrupt();
        }
        try {
            leased.forEach(id -> delivery.release(id, node));
        } catch (RuntimeException failure) {
            // The leases then end by themselves, a lease after their last renewal.
        }
        ages.values().forEach(registry::remove);
    }

    /** Names this node in the leases it holds: its host, process and a random part, so two starts never share one. */
    private static String nodeName() {
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        String name = ManagementFactory.getRuntimeMXBean().getName() + "/" + HexFormat.of().formatHex(random);
        return name.length() <= 100 ? name : name.substring(name.length() - 100);
    }
}
