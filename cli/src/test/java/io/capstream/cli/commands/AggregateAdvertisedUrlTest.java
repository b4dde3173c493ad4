package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.aggregator.api.AdvertisedUrl;
import io.capstream.cli.CommandOutput;
import org.junit.jupiter.api.Test;

/** {@code aggregate --advertised-url}: its help and its usage errors (no Kafka needed: checked first). */
class AggregateAdvertisedUrlTest {
    @Test
    void helpExplainsSeveralInstances() {
        CommandOutput help = CommandOutput.run("aggregate", "--help");
        assertEquals(0, help.exitCode());
        String text = help.out().replaceAll("\\s+", " ");
        assertThat(text).contains("--advertised-url=URL");
        assertThat(text).contains("same --application-id");
        assertThat(text).contains("http://HOST:PORT (Kafka Streams application.server)");
    }

    @Test
    void theBannerSaysWhereOtherInstancesForwardTo() {
        assertEquals("capstream aggregate: application id capstream-aggregator; other instances of it reach this one at"
                + " http://127.0.0.1:8088 (loopback: only instances on this machine can; see --advertised-url)",
                AggregateCommand.advertisedLine("capstream-aggregator", new AdvertisedUrl("127.0.0.1", 8088), false));
        assertEquals("capstream aggregate: application id a; other instances of it reach this one at http://agg-1:8088",
                AggregateCommand.advertisedLine("a", AdvertisedUrl.parse("http://agg-1:8088"), true));
        assertThat(AggregateCommand.advertisedLine("a", new AdvertisedUrl("box", 8088), false)).endsWith("(set --advertised-url if they cannot)");
    }

    @Test
    void aBadUrlIsAUsageErrorWithOneLine() {
        for (String[] bad : new String[][] {
            {"h:8088", "capstream aggregate: --advertised-url: expected http://HOST:PORT, got 'h:8088'"},
            {"http://0.0.0.0:8088", "capstream aggregate: --advertised-url: expected an address the other instances can"
                    + " connect to, got the wildcard address in 'http://0.0.0.0:8088'"}}) {
            CommandOutput r = CommandOutput.run("aggregate", "--bootstrap-servers", "127.0.0.1:1",
                    "--schema-registry-url", "http://127.0.0.1:1", "--advertised-url", bad[0]);
            assertEquals(2, r.exitCode(), r.err());
            assertEquals(bad[1], r.err().strip());
        }
    }
}
