package io.capstream.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.slf4j.Marker;

/**
 * Turns Kafka Streams' ERROR lines about local state it has to wipe into one WARN line. When an exactly-once
 * application starts on state without a valid checkpoint (a process that was killed or crashed, another program's
 * state in the same directory; with Kafka Streams 4.4 also the window stores' tasks after a clean stop), each stream
 * thread's {@code TaskManager} logs {@code ERROR ... Get exceptions for the
 * following tasks: {1_2=org.apache.kafka.streams.errors.TaskCorruptedException: Tasks [1_2] are corrupted ...}} with
 * the exceptions, then wipes those tasks and restores them from their changelog topics: nothing is lost, and Kafka
 * Streams has no handler for it. This filter denies exactly that line when every exception in it is a
 * {@link TaskCorruptedException} (any other exception in it keeps the ERROR), and logs instead, at most once per
 * {@link #QUIET_MS}, {@code WARN ... Kafka Streams wipes the local state of tasks 1_2, 2_0 (no valid checkpoint: ...) and restores it ...}.
 *
 * <p>Installed from {@code logback.xml} ({@code <turboFilter class="...CorruptedTaskLogFilter"/>}). Thread-safe.
 */
public final class CorruptedTaskLogFilter extends TurboFilter {
    /** The logger of the line replaced. */
    static final String TASK_MANAGER = "org.apache.kafka.streams.processor.internals.TaskManager";
    /** The text of the line replaced. */
    static final String TEXT = "Get exceptions for the following tasks";
    /** One entry of the formatted map: task id, then the exception's class name. */
    private static final Pattern ENTRY = Pattern.compile("[{,] ?(\\d+_\\d+)=([\\w.$]+)(?::|[,}])");
    /** How long after a WARN line further corrupted tasks are folded into it (the other threads' lines), ms. */
    static final long QUIET_MS = 10_000;

    /** The logger of the WARN line (in the filtered logger's context). */
    static final String WARN_LOGGER = "io.capstream.aggregator.state";

    private final LongSupplier clockMs;
    private long lastWarnMs = Long.MIN_VALUE;

    /** With the system clock. */
    public CorruptedTaskLogFilter() {
        this(System::currentTimeMillis);
    }

    /** @param clockMs the clock of the {@link #QUIET_MS} period, ms; not null */
    CorruptedTaskLogFilter(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level != Level.ERROR || logger == null || !TASK_MANAGER.equals(logger.getName()) || format == null
                || !format.contains(TEXT)) {
            return FilterReply.NEUTRAL;
        }
        // Kafka's LogContext loggers format the message themselves and pass no arguments
        TreeSet<String> tasks = params == null || params.length == 0 ? corruptedTasks(format) : corruptedTasks(params);
        if (tasks == null) {
            return FilterReply.NEUTRAL;
        }
        if (shouldWarn()) {
            logger.getLoggerContext().getLogger(WARN_LOGGER).warn(message(tasks));
        }
        return FilterReply.DENY;
    }

    /** @return the tasks of the one map argument whose values are all TaskCorruptedException, else null */
    static TreeSet<String> corruptedTasks(Object[] params) {
        for (Object p : params) {
            if (p instanceof Map<?, ?> m && !m.isEmpty()) {
                TreeSet<String> tasks = new TreeSet<>();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getValue() instanceof TaskCorruptedException)) {
                        return null;
                    }
                    tasks.add(String.valueOf(e.getKey()));
                }
                return tasks;
            }
        }
        return null;
    }

    /**
     * @param message the formatted line, {@code ... tasks: {1_2=org.apache.kafka.streams.errors.TaskCorruptedException:
     *                Tasks [1_2] are corrupted ..., 2_0=...}}
     * @return its tasks when the exception of every one is a TaskCorruptedException, else null
     */
    static TreeSet<String> corruptedTasks(String message) {
        int start = message.indexOf(TEXT);
        Matcher m = ENTRY.matcher(message.substring(start));
        TreeSet<String> tasks = new TreeSet<>();
        while (m.find()) {
            if (!TaskCorruptedException.class.getName().equals(m.group(2))) {
                return null;
            }
            tasks.add(m.group(1));
        }
        return tasks.isEmpty() ? null : tasks;
    }

    /** @return the WARN line for these tasks */
    static String message(TreeSet<String> tasks) {
        return "Kafka Streams wipes the local state of tasks " + String.join(", ", tasks) + " (no valid checkpoint:"
                + " TaskCorruptedException) and restores it from the changelog topics; nothing is lost";
    }

    private synchronized boolean shouldWarn() {
        long now = clockMs.getAsLong();
        if (lastWarnMs != Long.MIN_VALUE && now - lastWarnMs < QUIET_MS) {
            return false;
        }
        lastWarnMs = now;
        return true;
    }
}
