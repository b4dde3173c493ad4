package io.capstream.cli.signals;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.time.ManualCapClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link ForcedExit} does with each signal: the first goes on to the JVM's handler (the orderly stop), a repeat
 * within {@link ForcedExit#REPEAT} is the same signal, a later one prints what is lost and halts. The clock and the
 * halt are injected; {@code SignalExitCodesIT} sends real signals.
 */
class ForcedExitTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final ManualCapClock clock = new ManualCapClock();
    private final List<Integer> halts = new ArrayList<>();
    private final ForcedExit exit = new ForcedExit(clock, () -> err, halts::add);

    private String err() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theFirstSignalStartsTheOrderlyStopAndASecondOneExitsAtOnceSayingWhatIsLost() {
        exit.watching(true);
        assertThat(exit.hintText()).as("hint before any signal").isEmpty();
        assertThat(exit.signalled("INT", 2)).as("first Ctrl-C").isEqualTo(ForcedExit.Outcome.FIRST);
        assertThat(exit.hintText()).as("hint once the stop runs").isEqualTo("; press Ctrl-C again to exit at once");
        exit.register("capstream run", () -> "the report of what ran is not written");
        assertThat(halts).as("halts after the first").isEmpty();
        assertThat(err()).as("stderr after the first").isEmpty();

        clock.advance(Duration.ofSeconds(3));
        assertThat(exit.signalled("INT", 2)).as("second Ctrl-C").isEqualTo(ForcedExit.Outcome.FORCED);
        assertThat(halts).as("halt status").containsExactly(130);
        assertThat(err()).as("stderr").isEqualTo("capstream run: second Ctrl-C, exiting at once: the report of what"
                + " ran is not written" + System.lineSeparator());
    }

    @Test
    void aRepeatWithinASecondIsTheSameSignalAsAWrapperThatPassesItOnDeliversItTwice() {
        assertThat(exit.signalled("INT", 2)).as("the terminal's Ctrl-C").isEqualTo(ForcedExit.Outcome.FIRST);
        clock.advance(ForcedExit.REPEAT.minusMillis(1));
        assertThat(exit.signalled("INT", 2)).as("the script's copy of it").isEqualTo(ForcedExit.Outcome.REPEAT);
        assertThat(halts).as("halts").isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(exit.signalled("TERM", 15)).as("a SIGTERM a second later").isEqualTo(ForcedExit.Outcome.FORCED);
        assertThat(halts).as("halt status: 128 + SIGTERM").containsExactly(143);
        assertThat(err()).as("stderr, nothing registered").isEqualTo("capstream: second signal (SIGTERM), exiting at"
                + " once" + System.lineSeparator());
    }

    @Test
    void withoutASecondCtrlCToSeeThereIsNoHint() {
        exit.signalled("TERM", 15);
        assertThat(exit.hintText()).as("hint when SIGINT is not watched (started ignored, -Xrs)").isEmpty();
        assertThat(ForcedExit.hint()).as("the JVM's hint in a test JVM (not installed)").isEmpty();
    }
}
