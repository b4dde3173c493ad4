package io.capstream.cli.signals;

import io.capstream.schemas.time.CapClock;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * A second SIGINT or SIGTERM ends the process at once while the orderly stop of the first one runs ("press Ctrl-C
 * again to exit at once", as most command-line tools do).
 *
 * <p>The first signal is passed on to the JVM's own handler, so it still runs the shutdown hooks (each command's
 * orderly stop) and exits 130 or 143 (128 + the signal number). From then on the JVM itself does not act on further
 * signals; this class sees them through {@code sun.misc.Signal} (module {@code jdk.unsupported}, the usual way for a
 * JVM command-line tool; the only use of it in capstream). A later signal prints one line on stderr saying what is lost
 * (the text the running stop registered with {@link #stopping}, e.g. {@code capstream run: second Ctrl-C, exiting at
 * once: the report of what ran is not written}), kills the child processes (the registry of {@code up}), and halts the
 * JVM with 128 + its number ({@link Runtime#halt}: the hooks are still running).
 *
 * <p>A repeat less than {@link #REPEAT} after the first signal counts as the same signal: a wrapper that passes Ctrl-C
 * on to a process of the terminal's group (the {@code ./capstream} script on its first run after a build, GNU
 * {@code timeout}, a service manager's SIGTERM to every process of the unit) delivers it twice.
 *
 * <p>Installed by {@code CapstreamMain.main} only ({@link #install()}); not installed (tests, {@code -Xrs}, a signal
 * the JVM was started with ignored), nothing changes and {@link #hint()} is empty. Thread-safe.
 */
public final class ForcedExit {
    /** How long after the first signal a repeat still counts as the same signal. */
    public static final Duration REPEAT = Duration.ofSeconds(1);
    /** The clause the stop notices end with once a signal started the stop (see {@link #hint()}). */
    static final String HINT = "; press Ctrl-C again to exit at once";
    private static final long NONE = Long.MIN_VALUE;
    /** The one of this JVM: the system clock, stderr, {@link Runtime#halt}. */
    private static final ForcedExit JVM = new ForcedExit(CapClock.system(), () -> System.err, status -> {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        Runtime.getRuntime().halt(status);
    });

    /** What a signal did. */
    enum Outcome {
        /** The first: passed on to the JVM's handler (the orderly stop). */
        FIRST,
        /** A repeat within {@link #REPEAT} of the first: ignored. */
        REPEAT,
        /** A later one: the line printed and the JVM halted. */
        FORCED
    }

    private final CapClock clock;
    private final Supplier<PrintStream> err;
    private final IntConsumer halt;
    private final AtomicLong firstNanos = new AtomicLong(NONE);
    private volatile boolean watching;
    private volatile String command = "capstream";
    private volatile Supplier<String> lost = () -> null;

    /**
     * @param clock when the signals came ({@link #REPEAT}); not null
     * @param err   where the line of a forced exit goes (the JVM's: stderr as it is then, masked); not null
     * @param halt  ends the process with the given status (the JVM's: kills the child processes, then
     *              {@link Runtime#halt}); not null
     */
    ForcedExit(CapClock clock, Supplier<PrintStream> err, IntConsumer halt) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.err = Objects.requireNonNull(err, "err");
        this.halt = Objects.requireNonNull(halt, "halt");
    }

    /**
     * Takes over SIGINT and SIGTERM from the JVM (its handler still runs for the first signal). A signal the JVM was
     * started with ignored stays ignored; with {@code -Xrs} nothing is installed. Call once, from {@code main}.
     */
    public static void install() {
        for (String name : List.of("INT", "TERM")) {
            Signal signal = new Signal(name);
            SignalHandler[] jvm = new SignalHandler[1];
            try {
                jvm[0] = Signal.handle(signal, s -> {
                    if (JVM.signalled(s.getName(), s.getNumber()) == Outcome.FIRST) {
                        passOn(jvm[0], s);
                    }
                });
            } catch (IllegalArgumentException e) {
                continue; // -Xrs: the JVM left the signal to the OS, and so do we
            }
            if (jvm[0] == SignalHandler.SIG_IGN) {
                Signal.handle(signal, SignalHandler.SIG_IGN); // started ignored (a background job): it stays so
            } else if (name.equals("INT")) {
                JVM.watching = true;
            }
        }
    }

    /** The first signal does what the JVM's handler did: the shutdown hooks, then exit 128 + its number. */
    private static void passOn(SignalHandler jvm, Signal s) {
        if (jvm == null || jvm == SignalHandler.SIG_DFL || jvm == SignalHandler.SIG_IGN) {
            System.exit(128 + s.getNumber());
        } else {
            jvm.handle(s);
        }
    }

    /**
     * Says what an exit forced now would lose; the last call wins (one command runs per process). Called when an
     * orderly stop starts ({@code BoundedStop}, {@code up}'s hook).
     *
     * @param command the prefix of the line, e.g. {@code capstream run}; not null
     * @param lost    what the stop still has to do, e.g. {@code the report of what ran is not written}; not null,
     *                may return null (nothing is lost)
     */
    public static void stopping(String command, Supplier<String> lost) {
        JVM.register(command, lost);
    }

    /**
     * @return {@code "; press Ctrl-C again to exit at once"} once a signal started the stop and a second Ctrl-C would
     *         be seen, for the end of a stop notice; else empty (a stop of the command's own, tests)
     */
    public static String hint() {
        return JVM.hintText();
    }

    void register(String command, Supplier<String> lost) {
        this.command = Objects.requireNonNull(command, "command");
        this.lost = Objects.requireNonNull(lost, "lost");
    }

    String hintText() {
        return watching && firstNanos.get() != NONE ? HINT : "";
    }

    /**
     * @param watching whether a second SIGINT is seen (tests)
     */
    void watching(boolean watching) {
        this.watching = watching;
    }

    /**
     * Decides on one signal: the first is passed on, a repeat within {@link #REPEAT} ignored, a later one prints the
     * line and halts.
     *
     * @param name   the signal's name, {@code INT} or {@code TERM}
     * @param number its number (2, 15)
     * @return what was done (the caller passes {@link Outcome#FIRST} on to the JVM's handler)
     */
    Outcome signalled(String name, int number) {
        long now = clock.nanoTime();
        if (firstNanos.compareAndSet(NONE, now)) {
            return Outcome.FIRST;
        }
        if (now - firstNanos.get() < REPEAT.toNanos()) {
            return Outcome.REPEAT;
        }
        String what;
        try {
            what = lost.get();
        } catch (RuntimeException e) {
            what = null;
        }
        PrintStream out = err.get();
        out.println(command + ": " + ("INT".equals(name) ? "second Ctrl-C" : "second signal (SIG" + name + ")")
                + ", exiting at once" + (what == null || what.isBlank() ? "" : ": " + what));
        out.flush();
        halt.accept(128 + number);
        return Outcome.FORCED;
    }
}
