package io.capstream.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Before: {@code aggregate} on state a killed process left printed one ERROR line with TaskCorruptedExceptions per
 * stream thread. With the command's logback.xml it is one WARN line that says what happens to the state.
 */
class CorruptedTaskLogFilterTest {
    private LoggerContext context;
    private ListAppender<ILoggingEvent> seen;

    @BeforeEach
    void configureLikeTheCommand() throws Exception {
        context = new LoggerContext();
        JoranConfigurator c = new JoranConfigurator();
        c.setContext(context);
        c.doConfigure(CorruptedTaskLogFilter.class.getResource("/logback.xml")); // the command's configuration
        seen = new ListAppender<>();
        seen.setContext(context);
        seen.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(seen);
    }

    private static Map<TaskId, RuntimeException> corrupted(String... tasks) {
        Map<TaskId, RuntimeException> m = new LinkedHashMap<>();
        for (String t : tasks) {
            TaskId id = TaskId.parse(t);
            m.put(id, new TaskCorruptedException(Set.of(id)));
        }
        return m;
    }

    private List<String> lines() {
        return seen.list.stream().map(e -> e.getLevel() + " " + e.getLoggerName() + " - " + e.getFormattedMessage())
                .toList();
    }

    @Test
    void theTaskManagersCorruptedTaskErrorsBecomeOneWarnLine() {
        Logger tm = context.getLogger(CorruptedTaskLogFilter.TASK_MANAGER);
        tm.error("stream-thread [app-StreamThread-1] Get exceptions for the following tasks: {}", corrupted("2_0", "1_2"));
        tm.error("stream-thread [app-StreamThread-2] Get exceptions for the following tasks: {}", corrupted("3_0", "0_1"));
        assertEquals(List.of("WARN io.capstream.aggregator.state - Kafka Streams wipes the local state of tasks 1_2, 2_0 (no"
                + " valid checkpoint: TaskCorruptedException) and restores it from the changelog topics; nothing is lost"), lines(),
                "one WARN line for the threads' ERROR lines of one start");
    }

    /** Kafka's LogContext loggers (TaskManager's) format the line themselves and pass no arguments. */
    @Test
    void theLineIsRecognisedAlsoAsFormattedText() {
        Logger tm = context.getLogger(CorruptedTaskLogFilter.TASK_MANAGER);
        tm.error("stream-thread [app-StreamThread-1] Get exceptions for the following tasks: " + corrupted("1_0", "1_3"));
        String mixed = "stream-thread [t] Get exceptions for the following tasks: " + corrupted("0_0")
                .toString().replace("}", ", 0_1=java.lang.IllegalStateException: boom}");
        tm.error(mixed);
        assertEquals(List.of("WARN io.capstream.aggregator.state - Kafka Streams wipes the local state of tasks 1_0, 1_3 (no"
                + " valid checkpoint: TaskCorruptedException) and restores it from the changelog topics; nothing is lost", "ERROR " + CorruptedTaskLogFilter.TASK_MANAGER
                + " - " + mixed), lines());
    }

    @Test
    void anyOtherExceptionOrLineStaysAnError() {
        Logger tm = context.getLogger(CorruptedTaskLogFilter.TASK_MANAGER);
        Map<TaskId, RuntimeException> mixed = corrupted("0_0");
        mixed.put(TaskId.parse("0_1"), new IllegalStateException("boom"));
        tm.error("stream-thread [t] Get exceptions for the following tasks: {}", mixed);
        tm.error("stream-thread [t] Failed to process stream task {}", "0_0");
        assertEquals(2, seen.list.size(), "both stay: " + lines());
        assertEquals(List.of("ERROR", "ERROR"), seen.list.stream().map(e -> e.getLevel().toString()).toList(), lines().toString());
    }

    @Test
    void aLaterCorruptionGetsItsOwnLine() {
        AtomicLong now = new AtomicLong(1_000);
        CorruptedTaskLogFilter f = new CorruptedTaskLogFilter(now::get);
        Logger tm = context.getLogger(CorruptedTaskLogFilter.TASK_MANAGER);
        Object[] params = {corrupted("0_0")};
        assertEquals(ch.qos.logback.core.spi.FilterReply.DENY, f.decide(null, tm, ch.qos.logback.classic.Level.ERROR,
                "x " + CorruptedTaskLogFilter.TEXT + ": {}", params, null));
        now.addAndGet(CorruptedTaskLogFilter.QUIET_MS - 1);
        f.decide(null, tm, ch.qos.logback.classic.Level.ERROR, "x " + CorruptedTaskLogFilter.TEXT + ": {}", params, null);
        now.addAndGet(1);
        f.decide(null, tm, ch.qos.logback.classic.Level.ERROR, "x " + CorruptedTaskLogFilter.TEXT + ": {}", params, null);
        assertEquals(2, seen.list.stream().filter(e -> e.getLoggerName().equals(CorruptedTaskLogFilter.WARN_LOGGER))
                .count(), "a WARN, none within the quiet period, then another: " + lines());
    }
}
