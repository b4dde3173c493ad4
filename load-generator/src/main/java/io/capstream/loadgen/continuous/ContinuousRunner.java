package io.capstream.loadgen.continuous;

import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.StoppedBeforeStartException;
import io.capstream.loadgen.run.UsageException;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Continuous capacity monitoring: runs {@link ContinuousConfig#base()} again and again until
 * {@link #stop()} — every {@code interval} in {@link ContinuousConfig.Mode#PROBE} mode (each a
 * normal run with its own run id, events and report), or back to back in
 * {@link ContinuousConfig.Mode#STEADY} mode (open loop, each run lasting {@code interval}, so the
 * rate is held). Heartbeats go to every partition of the events topic every
 * {@code heartbeatInterval} for the whole session, also between runs, so windows close when no
 * request completes.
 *
 * <p>Failure handling: a request failure (endpoint down, HTTP errors, timeouts) is recorded as a
 * {@code RequestFailed} event by the run and the loop goes on; an error that prevents a run is
 * reported to the listener and the loop goes on at the next interval; a {@link UsageException}
 * (invalid parameters) ends the session (thrown by {@link #run()}).
 *
 * <p>Stopping: {@link #stop()} (e.g. from a SIGINT/SIGTERM shutdown hook) asks the current run to
 * start no new request; requests in flight finish and the run sends {@code RunFinished} with
 * {@code interrupted = true}; then {@link #run()} returns. A run stopped before its T0 (during its warm-up) has
 * nothing measured and sent no event: it is neither a run nor a run error. Thread-safe; one session per instance.
 */
public final class ContinuousRunner {
    private static final Logger LOG = LoggerFactory.getLogger(ContinuousRunner.class);
    private static final Duration SINK_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final LoadGenerator generator;
    private final Supplier<? extends EventSink> sinks;
    private final HeartbeatSender heartbeats;
    private final ContinuousConfig config;
    private final ContinuousListener listener;
    private final RunListener runListener;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private final AtomicReference<RunControl> current = new AtomicReference<>();
    private final AtomicLong heartbeatCount = new AtomicLong();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopped;
    private final CapClock clock;

    /**
     * @param generator   load generator; not null
     * @param sinks       makes one event sink per run (closed, i.e. flushed, after the run, so
     *                    each run's {@code events_undelivered} counts only its own events); not null
     * @param heartbeats  heartbeat sender (not closed here); not null
     * @param config      session settings; not null
     * @param listener    session callbacks; not null
     * @param runListener per-run progress callbacks (event-loop threads); not null
     */
    public ContinuousRunner(LoadGenerator generator, Supplier<? extends EventSink> sinks, HeartbeatSender heartbeats,
                            ContinuousConfig config, ContinuousListener listener, RunListener runListener) {
        this(generator, sinks, heartbeats, config, listener, runListener, CapClock.system());
    }

    /**
     * @param generator   load generator; not null
     * @param sinks       makes one event sink per run; not null
     * @param heartbeats  heartbeat sender (not closed here); not null
     * @param config      session settings; not null
     * @param listener    session callbacks; not null
     * @param runListener per-run progress callbacks (event-loop threads); not null
     * @param clock       the clock of the runs' start times and of the wait between them; not null
     */
    public ContinuousRunner(LoadGenerator generator, Supplier<? extends EventSink> sinks, HeartbeatSender heartbeats,
                            ContinuousConfig config, ContinuousListener listener, RunListener runListener,
                            CapClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.generator = Objects.requireNonNull(generator, "generator");
        this.sinks = Objects.requireNonNull(sinks, "sinks");
        this.heartbeats = Objects.requireNonNull(heartbeats, "heartbeats");
        this.config = Objects.requireNonNull(config, "config");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.runListener = Objects.requireNonNull(runListener, "runListener");
    }

    /**
     * Runs until {@link #stop()}; blocks the calling thread.
     *
     * @return the session totals
     * @throws UsageException       when the run parameters are invalid (nothing was sent)
     * @throws InterruptedException when the calling thread is interrupted (the current run is stopped first)
     */
    public ContinuousSummary run() throws InterruptedException, UsageException {
        ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-heartbeat");
            t.setDaemon(true);
            return t;
        });
        // the target as the run's events record it (user:password@ masked), so that windows key on one target
        Heartbeat hb = new Heartbeat(io.capstream.schemas.text.Redaction.url(config.base().target().baseUrl()),
                config.base().target().model(), java.util.Map.of(), null);
        long hbMs = config.heartbeatInterval().toMillis();
        beat.scheduleAtFixedRate(() -> {
            try {
                heartbeatCount.addAndGet(heartbeats.beat(hb));
            } catch (RuntimeException e) {
                LOG.warn("heartbeat failed: {}", e.toString());
            }
        }, 0, hbMs, TimeUnit.MILLISECONDS);
        int runs = 0;
        int errors = 0;
        long completed = 0;
        long failed = 0;
        long undelivered = 0;
        try {
            long nextStart = clock.nanoTime();
            for (int iteration = 0; !stopped; iteration++) {
                if (!sleepUntil(nextStart)) {
                    break;
                }
                long started = clock.nanoTime();
                RunControl control = new RunControl();
                current.set(control);
                if (stopped) {
                    control.requestStop();
                }
                EventSink sink = sinks.get();
                RunOutcome outcome = null;
                try {
                    var cfg = config.runConfig(iteration);
                    // an endpoint no request could reach does not stop monitoring (it may come up later, or be
                    // down for a while): its runs record the outage as failed requests; the first run logs why
                    boolean first = iteration == 0;
                    outcome = generator.prepare(cfg, false)
                            .thenCompose(plan -> {
                                if (first) {
                                    plan.warnings().forEach(w -> LOG.warn("{}", w));
                                }
                                return generator.run(plan, sink, runListener, control);
                            })
                            .get();
                    runs++;
                    completed += outcome.completed();
                    failed += outcome.failed();
                } catch (ExecutionException | CompletionException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                            && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    if (cause instanceof UsageException usage) {
                        throw usage;
                    }
                    if (cause instanceof StoppedBeforeStartException && stopped) {
                        // stopped (Ctrl-C) during this run's warm-up, before its T0: no run, and not an error
                        break;
                    }
                    errors++;
                    LOG.warn("continuous run {} could not be carried out: {}", iteration, cause.toString());
                    listener.onRunError(iteration, cause);
                } catch (InterruptedException e) {
                    control.requestStop();
                    throw e;
                } finally {
                    current.set(null);
                    long runUndelivered = sink.close(SINK_CLOSE_TIMEOUT);
                    undelivered += runUndelivered;
                    if (outcome != null) {
                        // after the sink's close: the run's line says whether all of its events reached Kafka (an
                        // outage used to leave "20 completed, 0 failed of 20" for a run whose RunStarted was lost)
                        listener.onRunFinished(iteration, outcome.withEventsUndelivered(runUndelivered));
                    }
                }
                long intervalNs = config.interval().toNanos();
                long now = clock.nanoTime();
                nextStart = config.mode() == ContinuousConfig.Mode.STEADY ? now : Math.max(started + intervalNs, now);
            }
        } finally {
            beat.shutdownNow();
            finished.countDown();
        }
        return new ContinuousSummary(runs, errors, completed, failed, undelivered, heartbeatCount.get());
    }

    private boolean sleepUntil(long deadlineNanos) throws InterruptedException {
        lock.lock();
        try {
            // a stop() signals the condition; the time left is read from the clock after each wake-up
            long left = deadlineNanos - clock.nanoTime();
            while (!stopped && left > 0) {
                wake.awaitNanos(left);
                left = deadlineNanos - clock.nanoTime();
            }
            return !stopped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the session: the current run starts no new request, finishes those in flight and
     * sends RunFinished (interrupted); no further run starts. Idempotent, any thread, never blocks.
     */
    public void stop() {
        stopped = true;
        RunControl c = current.get();
        if (c != null) {
            c.requestStop();
        }
        lock.lock();
        try {
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@link #run()} has returned (for shutdown hooks).
     *
     * @param timeoutMs how long to wait, ms
     * @return true when it returned in time
     * @throws InterruptedException when interrupted
     */
    public boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** @return heartbeat records sent so far */
    public long heartbeatsSent() {
        return heartbeatCount.get();
    }
}
