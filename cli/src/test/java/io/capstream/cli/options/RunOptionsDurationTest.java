package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --duration} and {@code --ramp-up} take the forms of --interval/--window (5s, 1m, 500ms, bare seconds). */
class RunOptionsDurationTest {
    @Command(name = "holder")
    static final class Holder {
        @Mixin
        RunOptions run = new RunOptions();
    }

    private static Double durationS(String... args) {
        Holder h = new Holder();
        new CommandLine(h).parseArgs(args);
        return h.run.toConfig(new SimOptions()).load().durationS();
    }

    @Test
    void acceptsUnitsAndBareSeconds() {
        assertEquals(5.0, durationS("--duration", "5s"));
        assertEquals(5.0, durationS("--duration", "5"));
        assertEquals(1.5, durationS("--duration", "1.5"));
        assertEquals(60.0, durationS("--duration", "1m"));
        assertEquals(0.5, durationS("--duration", "500ms"));
        assertEquals(90.0, durationS("--duration", "PT1M30S"));
        assertNull(durationS());
    }

    @Test
    void rampUpMapsOntoTheRunConfig() {
        Holder h = new Holder();
        new CommandLine(h).parseArgs("--ramp-up", "2s", "--concurrency", "1000");
        assertEquals(2.0, h.run.toConfig(new SimOptions()).load().rampUpS());
        Holder none = new Holder();
        new CommandLine(none).parseArgs();
        assertNull(none.run.toConfig(new SimOptions()).load().rampUpS(), "no ramp unless asked: the reference");
    }

    @Test
    void rejectsNonDurations() {
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> durationS("--duration", "5x"));
        assertThat(e.getMessage()).contains("not a duration");
        e = assertThrows(CommandLine.ParameterException.class, () -> durationS("--ramp-up", "-1s"));
        assertThat(e.getMessage()).contains("'-1s' is negative");
        // used to escape as an ArithmeticException (long overflow) with a stack trace
        e = assertThrows(CommandLine.ParameterException.class, () -> durationS("--duration", "99999999999h"));
        assertThat(e.getMessage()).contains("is too long");
        e = assertThrows(CommandLine.ParameterException.class, () -> durationS("--ramp-up", "PT99999999999H"));
        assertThat(e.getMessage()).contains("is too long");
    }

    @Test
    void helpSaysHowDurationAndRequestsCombine() {
        String usage = String.join(" ", new CommandLine(new Holder()).getCommandSpec().findOption("--duration")
                .description());
        assertThat(usage).contains("Closed loop: --requests stays the upper bound");
        assertThat(usage).contains("whatever --requests says");
    }
}
