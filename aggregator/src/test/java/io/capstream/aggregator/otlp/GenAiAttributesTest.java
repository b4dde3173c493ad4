package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.aggregator.api.WindowTotals;
import io.opentelemetry.api.common.Attributes;
import org.junit.jupiter.api.Test;

class GenAiAttributesTest {
    private static Attributes of(String target) {
        return GenAiAttributes.of(new WindowTotals.SeriesKey(target, "m", "le512"), "openai", "chat").build();
    }

    @Test
    void userInfoNeverReachesAnAttribute() {
        Attributes a = of("https://user:pa%40ss@api.example.com/v1");
        assertThat(a.get(GenAiAttributes.TARGET)).as("capstream.target: masked, apart from the same URL without it")
                .isEqualTo("https://***@api.example.com/v1");
        assertThat(of("https://api.example.com/v1").get(GenAiAttributes.TARGET)).as("capstream.target without user-info")
                .isEqualTo("https://api.example.com/v1");
        assertThat(a.get(GenAiAttributes.SERVER_ADDRESS)).as("server.address").isEqualTo("api.example.com");
        assertThat(a.get(GenAiAttributes.SERVER_PORT)).as("server.port (https default)").isEqualTo(443L);
        assertThat(a.toString()).as("every attribute").doesNotContain("user").doesNotContain("pa%40ss");
    }

    @Test
    void ipv6HostsLoseTheirBracketsAndExplicitPortsAreKept() {
        Attributes a = of("http://[::1]:8000");
        assertThat(a.get(GenAiAttributes.SERVER_ADDRESS)).as("server.address").isEqualTo("::1");
        assertThat(a.get(GenAiAttributes.SERVER_PORT)).as("server.port").isEqualTo(8000L);
    }

    @Test
    void aTargetThatIsNoUrlHasNoServerAttributes() {
        Attributes a = of("imported run");
        assertThat(a.get(GenAiAttributes.SERVER_ADDRESS)).as("server.address").isNull();
        assertThat(a.get(GenAiAttributes.TARGET)).as("capstream.target").isEqualTo("imported run");
    }

    @Test
    void namesParseInAnyCaseAndRejectOthers() {
        assertThat(OtlpNames.parse(" Legacy ")).isEqualTo(OtlpNames.LEGACY);
        assertThat(OtlpNames.BOTH.current() && OtlpNames.BOTH.legacy()).as("both").isTrue();
        assertThatThrownBy(() -> OtlpNames.parse("v1.41")).hasMessage("must be current, legacy or both, got 'v1.41'");
    }

    @Test
    void aBaseEndpointGetsTheMetricsPath() {
        assertThat(OtlpConfig.metricsUrl("http://c:4318")).isEqualTo("http://c:4318/v1/metrics");
        assertThat(OtlpConfig.metricsUrl("https://otlp.example/otlp/")).isEqualTo("https://otlp.example/otlp/v1/metrics");
        assertThat(OtlpConfig.metricsUrl("http://c:4318/v1/metrics")).isEqualTo("http://c:4318/v1/metrics");
        assertThat(OtlpConfig.metricsUrl("http://c:4318/v1/metrics/")).as("metrics URL with a slash")
                .isEqualTo("http://c:4318/v1/metrics");
    }
}
