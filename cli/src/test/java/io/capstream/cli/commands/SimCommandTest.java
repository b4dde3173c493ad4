package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.CommandOutput;
import io.capstream.loadgen.sim.SimConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimCommandTest {
    @Test
    void invalidEngineOptionsAreUsageErrors() {
        assertEquals(2, CapstreamMain.execute("sim", "--port", "0", "--sim-slots", "0"));
        assertEquals(2, CapstreamMain.execute("sim", "--port", "0", "--sim-error-rate", "1.5"));
        assertEquals(2, CapstreamMain.execute("sim", "--port", "70000"));
        assertEquals(2, CapstreamMain.execute("sim", "--port", "0", "--sim-replicas", "0"));
        assertEquals(2, CapstreamMain.execute("sim", "--port", "0", "--sim-decode-spread", "1"));
        assertEquals(2, CapstreamMain.execute("sim", "--port", "0", "--sim-decode-spread", "-0.1"));
    }

    /** Before: "capstream sim: port must be 0..65535" and "capstream up: port must be 0..65535" named no option. */
    @Test
    void aPortOutOfRangeNamesItsOption() {
        CommandOutput sim = CommandOutput.run("sim", "--port", "70000");
        assertThat(sim.exitCode()).as("exit code of sim --port 70000: %s", sim.err()).isEqualTo(2);
        assertThat(sim.err().strip()).as("stderr of sim --port 70000")
                .isEqualTo("capstream sim: --port must be in 0..65535 (0 = a free port), got 70000");
        CommandOutput up = CommandOutput.run("up", "--with-sim", "--sim-port", "70000");
        assertThat(up.exitCode()).as("exit code of up --sim-port 70000: %s", up.err()).isEqualTo(2);
        assertThat(up.err()).as("stderr of up --sim-port 70000").contains("--sim-port must be in 0..65535, got 70000");
    }

    @Test
    void optionsMapOntoTheEngineConfig() {
        SimCommand cmd = new SimCommand();
        new CommandLine(cmd).parseArgs("--port", "0", "--sim-ttft-ms", "200", "--sim-slots", "5000",
                "--sim-decode-tok-s", "100000", "--sim-stream-tok-s", "20", "--sim-output-tokens", "64",
                "--sim-429-rate", "0.1", "--sim-retry-after-s", "3", "--sim-no-prefix-cache", "--sim-seed", "9",
                "--sim-replicas", "3", "--sim-decode-spread", "0.25");
        SimConfig c = cmd.sim.toConfig("127.0.0.1", 0);
        assertEquals(200.0, c.ttftBaseMs());
        assertEquals(5000, c.batchSlots());
        assertEquals(100_000.0, c.decodeTokPerS());
        assertEquals(20.0, c.streamDecodeTokPerS());
        assertEquals(64, c.outputTokens());
        assertEquals(0.1, c.rateLimitRate());
        assertEquals(3, c.retryAfterS());
        assertEquals(false, c.prefixCache());
        assertEquals(9L, c.seed());
        assertEquals(3, c.replicas());
        assertEquals(0.25, c.decodeSpread());
        assertEquals(0.0, SimConfig.defaults().decodeSpread(), "every stream at the same rate unless asked");
        assertEquals(1, SimConfig.defaults().replicas(), "one engine unless asked for more");
        assertEquals(SimConfig.defaults().maxModelLen(), c.maxModelLen());
    }

    @Test
    void toolCallRateIsAnEngineSettingWithinZeroAndOne() {
        SimCommand cmd = new SimCommand();
        new CommandLine(cmd).parseArgs("--port", "0", "--sim-tool-call-rate", "0.4");
        assertThat(cmd.sim.toConfig("127.0.0.1", 0).toolCallRate()).as("--sim-tool-call-rate 0.4").isEqualTo(0.4);
        assertThat(SimConfig.defaults().toolCallRate()).as("no tool calls unless asked").isZero();
        assertThat(CapstreamMain.execute("sim", "--port", "0", "--sim-tool-call-rate", "1.5"))
                .as("exit code of --sim-tool-call-rate 1.5").isEqualTo(2);
        assertThatThrownBy(() -> SimConfig.builder().toolCallRate(-0.1).build())
                .hasMessageContaining("--sim-tool-call-rate -0.1");
    }
}
