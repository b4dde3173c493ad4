package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * An {@link EventSink} that holds events in memory while the requests run and hands them to its
 * delegate only on {@link #flush()} (the generator flushes after its last request) or
 * {@link #close(Duration)}. With the broker and the aggregator in the same process
 * ({@code capstream run} on the embedded Kafka), this keeps their work (Avro encoding, produce,
 * log append, Kafka Streams processing) out of the measured window: they take no CPU from the
 * event loops that stamp chunks, nor from an engine on the same machine. An event costs a queue
 * node while it waits (a few hundred bytes; 100,000 requests stay well below 100 MB). Not for long
 * or continuous runs on a shared Kafka, where events should reach consumers as they happen and a
 * crash must not lose them.
 *
 * <p>The delegate may be <em>opened</em> late: {@link #DeferredEventSink(Supplier)} takes a factory
 * that runs once, on a thread of its own, at the first flush (or at a close with held events), so
 * that whatever the delegate needs (an embedded broker, the aggregator) need not even be running
 * while the requests are. When the factory fails, every held event counts as undelivered and
 * {@link #openError()} says why. A sink that never held an event never opens its delegate.
 */
public final class DeferredEventSink implements EventSink {
    private final Supplier<? extends EventSink> opener;
    private final ConcurrentLinkedQueue<RunEvent> held = new ConcurrentLinkedQueue<>();
    private CompletableFuture<EventSink> opened;
    private volatile EventSink delegate;
    private volatile String openError;
    private final CapClock clock;

    /** @param delegate where the events go on flush (closed by {@link #close(Duration)}); not null */
    public DeferredEventSink(EventSink delegate) {
        Objects.requireNonNull(delegate, "delegate");
        this.opener = () -> delegate;
        this.clock = CapClock.system();
    }

    /**
     * @param opener makes the delegate at the first flush (on a thread named
     *               {@code capstream-deferred-open}, so it may block, e.g. to start a broker); it may
     *               throw, and then the held events are undelivered; not null
     */
    public DeferredEventSink(Supplier<? extends EventSink> opener) {
        this(opener, CapClock.system());
    }

    /**
     * @param opener as in {@link #DeferredEventSink(Supplier)}; not null
     * @param clock  the clock of {@link #close}'s deadline (the time an opening took is not the delegate's); not null
     */
    public DeferredEventSink(Supplier<? extends EventSink> opener, CapClock clock) {
        this.opener = Objects.requireNonNull(opener, "opener");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Holds the event; cheap and non-blocking. */
    @Override
    public void send(RunEvent event) {
        held.add(event);
    }

    /**
     * Opens the delegate if needed, hands every held event to it in the order they were sent, then
     * flushes it.
     *
     * @return completes with the delegate's undelivered count (or the held count when the delegate
     *         could not be opened); never completes exceptionally
     */
    @Override
    public CompletableFuture<Long> flush() {
        return open().thenCompose(d -> {
            if (d == null) {
                return CompletableFuture.completedFuture(undelivered());
            }
            release(d);
            return d.flush();
        });
    }

    /** @return events held and not yet handed on (0 after a flush) */
    public int held() {
        return held.size();
    }

    /**
     * @return true while the delegate is being opened: from the first flush (or close) until the factory returned or
     *         failed (with the embedded Kafka, while its broker starts); false before and after
     */
    public synchronized boolean opening() {
        return opened != null && !opened.isDone();
    }

    /** @return why the delegate could not be opened, or null (not opened yet, or opened) */
    public String openError() {
        return openError;
    }

    /** @return the delegate's undelivered events, plus the held ones when the delegate could not be opened */
    @Override
    public long undelivered() {
        EventSink d = delegate;
        if (d != null) {
            return d.undelivered();
        }
        return openError != null ? held.size() : 0;
    }

    /** @return events held here plus those handed to the delegate */
    @Override
    public long handedOver() {
        EventSink d = delegate;
        return held.size() + (d == null ? 0 : d.handedOver());
    }

    /**
     * @return events held here plus those the delegate still waits for; 0 for the held events once
     *         the delegate could not be opened (they are {@link #undelivered()}, nothing waits for them)
     */
    @Override
    public long pending() {
        EventSink d = delegate;
        if (d == null) {
            return openError != null ? 0 : held.size();
        }
        return held.size() + d.pending();
    }

    @Override
    public String delivery() {
        return "deferred";
    }

    /**
     * Hands held events on (opening the delegate first if there are any), then closes the delegate,
     * all within the timeout.
     *
     * @return events not delivered (held events count when the delegate could not be opened in time)
     */
    @Override
    public long close(Duration timeout) {
        long deadline = clock.nanoTime() + timeout.toNanos();
        boolean needed;
        synchronized (this) {
            needed = opened != null || !held.isEmpty();
        }
        if (!needed) {
            return 0;
        }
        EventSink d;
        try {
            d = open().get(Math.max(0, deadline - clock.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            openError = "the event sink did not open within " + timeout.toSeconds() + " s";
            return held.size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return held.size();
        } catch (ExecutionException e) {
            return held.size(); // open() never completes exceptionally
        }
        if (d == null) {
            return held.size();
        }
        release(d);
        return d.close(Duration.ofNanos(Math.max(0, deadline - clock.nanoTime())));
    }

    /** @return the delegate, or null (with {@link #openError} set) when the factory failed */
    private synchronized CompletableFuture<EventSink> open() {
        if (opened == null) {
            opened = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    EventSink d = Objects.requireNonNull(opener.get(), "the event sink factory returned null");
                    delegate = d;
                    opened.complete(d);
                } catch (RuntimeException | Error e) {
                    openError = e.getMessage() == null ? e.toString() : e.getMessage();
                    opened.complete(null);
                }
            }, "capstream-deferred-open");
            t.setDaemon(true);
            t.start();
        }
        return opened;
    }

    private void release(EventSink d) {
        RunEvent e;
        while ((e = held.poll()) != null) {
            d.send(e);
        }
    }
}
