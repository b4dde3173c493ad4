package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.WarmupConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --client-warmup} and {@code --warmup-requests}: defaults, mapping and bounds. */
class RunOptionsWarmupTest {
    @Command(name = "holder")
    static final class Holder {
        @Mixin
        RunOptions run = new RunOptions();
    }

    private static RunConfig config(String... args) {
        Holder h = new Holder();
        new CommandLine(h).parseArgs(args);
        return h.run.toConfig(new SimOptions());
    }

    @Test
    void theCliWarmsTheClientForUpToFiveSecondsAndSendsNoWarmUpRequestsByDefault() {
        assertEquals(WarmupConfig.DEFAULTS, config().warmup());
        assertEquals(new WarmupConfig(5.0, 0), config().warmup());
    }

    @Test
    void optionsMapOntoTheWarmupConfig() {
        assertEquals(new WarmupConfig(0.5, 8), config("--client-warmup", "500ms", "--warmup-requests", "8").warmup());
        assertEquals(new WarmupConfig(0, 0), config("--client-warmup", "0").warmup(), "0 = off");
    }

    @Test
    void outOfRangeValuesAreUsageErrorsNamingTheFlag() {
        List<String> e = config("--warmup-requests", "-1").validate(x -> null);
        assertThat(e).contains("--warmup-requests must be between 0 and 100000, got -1");
        e = config("--client-warmup", "11m").validate(x -> null);
        assertThat(e).contains("--client-warmup must be between 0 and 600 s, got 660 s");
        e = config("--client-warmup", "99999h").validate(x -> null);
        assertThat(e).as("no scientific notation: " + e)
                .contains("--client-warmup must be between 0 and 600 s, got 359996400 s");
        assertThat(config().validate(x -> null)).isEmpty();
    }
}
