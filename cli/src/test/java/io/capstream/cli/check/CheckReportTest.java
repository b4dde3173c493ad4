package io.capstream.cli.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.ProbeExchange;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ClientTls;
import io.capstream.schemas.text.SecretMask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The finding logic over hand-made exchanges: each behaviour the check detects, and the verdict and exit rule. */
class CheckReportTest {
    private static final ProbeTarget TARGET = new ProbeTarget("http://127.0.0.1:1/v1", "m", ApiEndpoint.CHAT,
            ApiKey.none(), List.of(), ClientTls.DEFAULT, SecretMask.NONE);

    private static Map<String, Finding> findings(Observations o) {
        return CheckReport.of(TARGET, o).byKey();
    }

    private static Observations with(Observations o, ProbeExchange basic) {
        return new Observations(basic, o.repeat(), o.unasked(), o.thinkingOn(), o.thinkingOff(), o.oversize(),
                o.models(), o.metrics());
    }

    @Test
    void aConformingEndpointIsMeasurableWithAFindingPerBehaviour() {
        CheckReport r = CheckReport.of(TARGET, Streams.normalObservations());
        assertThat(r.measurable()).as("measurable, reason %s", r.reason()).isTrue();
        assertThat(r.findings()).as("findings").hasSizeGreaterThanOrEqualTo(8);
        Map<String, Finding> f = r.byKey();
        assertThat(f.get("streaming").value()).as("streaming").isEqualTo("sse");
        assertThat(f.get("role_chunk_first").value()).as("role first").isEqualTo("yes");
        assertThat(f.get("before_first_token").value()).as("before first token").isEqualTo("nothing");
        assertThat(f.get("usage_when_asked").value()).as("usage when asked").isEqualTo("yes");
        assertThat(f.get("usage_unasked").value()).as("usage unasked").isEqualTo("no");
        assertThat(f.get("context_window").value()).as("window").isEqualTo("4096");
        assertThat(f.get("max_tokens").value()).as("max_tokens").isEqualTo("honoured");
        assertThat(f.get("prefix_cache").value()).as("prefix cache").isEqualTo("visible");
        assertThat(f.get("oversize_prompt").verdict()).as("oversize: %s", f.get("oversize_prompt"))
                .isEqualTo(Finding.Verdict.OK);
        assertThat(f.get("metrics").value()).as("metrics").isEqualTo("yes");
        assertThat(f.get("implied_options").value()).as("implied").isEqualTo("--prompt-salt run");
    }

    @Test
    void aWholeJsonBodyToAStreamingRequestIsNotMeasurable() {
        Observations o = with(Streams.normalObservations(), Streams.body(200, "application/json",
                "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"));
        CheckReport r = CheckReport.of(TARGET, o);
        assertThat(r.measurable()).as("measurable").isFalse();
        assertThat(r.reason()).as("reason").contains("streaming").contains("one JSON body");
        assertThat(r.verdictLine()).as("verdict line").startsWith("not measurable: streaming");
    }

    /**
     * Fresh-user trial (aimock's malformedRate): a 200 JSON body that is not JSON was "no SSE data"; the streaming
     * finding now says what came back in run's words.
     */
    @Test
    void aMalformedJsonBodyIsReportedAsRunReportsIt() {
        CheckReport r = CheckReport.of(TARGET, with(Streams.normalObservations(),
                Streams.body(200, "application/json", "{malformed json: <<<chaos>>>")));
        Finding s = r.byKey().get("streaming");
        assertThat(s.verdict()).as("streaming %s", s).isEqualTo(Finding.Verdict.FAIL);
        assertThat(s.value()).as("streaming value").isEqualTo("not streamed");
        assertThat(s.detail()).as("streaming detail").isEqualTo("endpoint did not stream (Content-Type:"
                + " application/json): {malformed json: <<<chaos>>>; run counts such requests as ValueError failures");
        assertThat(r.verdictLine()).as("verdict line")
                .startsWith("not measurable: streaming: endpoint did not stream (Content-Type: application/json)");
    }

    /** A cut stream of another request than the first leaves the endpoint measurable, its own findings unknown. */
    @Test
    void aCutRepeatedRequestMakesOnlyThePrefixCacheUnknown() {
        Observations n = Streams.normalObservations();
        ProbeExchange full = n.repeat();
        ProbeExchange cut = new ProbeExchange(200, "text/event-stream", Map.of(), full.items().subList(0, 2),
                full.body(), "Connection was closed");
        CheckReport r = CheckReport.of(TARGET, new Observations(n.basic(), cut, n.unasked(), n.thinkingOn(),
                n.thinkingOff(), n.oversize(), n.models(), n.metrics()));
        assertThat(r.measurable()).as("measurable, reason %s", r.reason()).isTrue();
        Finding p = r.byKey().get("prefix_cache");
        assertThat(p.verdict()).as("prefix cache %s", p).isEqualTo(Finding.Verdict.UNKNOWN);
        assertThat(p.detail()).as("prefix cache detail").isEqualTo("not observed: the stream of the repeated request was cut"
                + " after 2 data chunks, no [DONE]");
        assertThat(r.byKey().get("usage_when_asked").value()).as("usage when asked").isEqualTo("yes");
    }

    @Test
    void anHttpErrorOrAStreamWithoutOutputIsNotMeasurable() {
        CheckReport error = CheckReport.of(TARGET, with(Streams.normalObservations(),
                Streams.body(404, "application/json", "{\"error\":{\"message\":\"model m not found\"}}")));
        assertThat(error.reason()).as("reason of a 404").contains("HTTP 404: model m not found");
        CheckReport empty = CheckReport.of(TARGET, with(Streams.normalObservations(),
                Streams.sse(Streams.role(), "data: [DONE]")));
        assertThat(empty.measurable()).as("measurable without output").isFalse();
        assertThat(empty.reason()).as("reason without output").startsWith("content_deltas");
    }

    @Test
    void keepAlivesEmptyAndProgressChunksBeforeTheFirstTokenAreNamed() {
        ProbeExchange s = Streams.sse(": keep-alive", "data: {\"choices\":[]}",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"}}]}", ": keep-alive", Streams.role(),
                Streams.content("Hi"), Streams.usage(1, 0), "data: [DONE]");
        Map<String, Finding> f = findings(with(Streams.normalObservations(), s));
        assertThat(f.get("before_first_token").value()).as("before first token")
                .isEqualTo("comment x2, progress, empty");
        assertThat(f.get("role_chunk_first").value()).as("role first").isEqualTo("no");
        assertThat(CheckReport.of(TARGET, with(Streams.normalObservations(), s)).measurable()).as("measurable")
                .isTrue();
    }

    @Test
    void anErrorObjectInsideA200StreamIsFoundInWhicheverRequestItCame() {
        Observations base = Streams.normalObservations();
        ProbeExchange errorStream = Streams.sse("data: {\"error\":{\"message\":\"context too long\",\"code\":400}}",
                "data: [DONE]");
        Observations o = new Observations(base.basic(), base.repeat(), base.unasked(), base.thinkingOn(),
                base.thinkingOff(), errorStream, base.models(), base.metrics());
        Map<String, Finding> f = findings(o);
        assertThat(f.get("error_in_stream").verdict()).as("error in stream: %s", f.get("error_in_stream"))
                .isEqualTo(Finding.Verdict.WARN);
        assertThat(f.get("error_in_stream").detail()).as("detail").contains("oversize prompt")
                .contains("followed by more data").contains("context too long");
        assertThat(f.get("oversize_prompt").value()).as("oversize").isEqualTo("200 + error in stream");
        CheckReport first = CheckReport.of(TARGET, with(base, errorStream));
        assertThat(first.measurable()).as("measurable when the first request's stream is an error").isFalse();
    }

    @Test
    void reasoningFieldAndWhetherThinkingTurnsOff() {
        Observations base = Streams.normalObservations();
        ProbeExchange thinking = Streams.sse(Streams.role(), Streams.reasoning("reasoning", "hmm"),
                Streams.content("Hi"), Streams.usage(2, 0), "data: [DONE]");
        Observations offWorks = new Observations(thinking, base.repeat(), base.unasked(), thinking, base.basic(),
                base.oversize(), base.models(), base.metrics());
        Map<String, Finding> f = findings(offWorks);
        assertThat(f.get("reasoning_field").value()).as("field").isEqualTo("reasoning");
        assertThat(f.get("thinking_off").value()).as("off").isEqualTo("yes");
        assertThat(f.get("implied_options").value()).as("implied").contains("--no-thinking");
        Observations offIgnored = new Observations(thinking, base.repeat(), base.unasked(), thinking, thinking,
                base.oversize(), base.models(), base.metrics());
        assertThat(findings(offIgnored).get("thinking_off").value()).as("off ignored").isEqualTo("no");
        ProbeExchange onlyWhenAsked = Streams.sse(Streams.role(), Streams.reasoning("reasoning_content", "hmm"),
                Streams.content("Hi"), "data: [DONE]");
        Observations onAsked = new Observations(base.basic(), base.repeat(), base.unasked(), onlyWhenAsked,
                base.thinkingOff(), base.oversize(), base.models(), base.metrics());
        Map<String, Finding> g = findings(onAsked);
        assertThat(g.get("reasoning_field").value()).as("field with enable_thinking").isEqualTo("reasoning_content");
        assertThat(g.get("thinking_off").value()).as("off when not on by default").isEqualTo("not needed");
    }

    @Test
    void usageOnlyWhenAskedOrNeverAndMaxTokensIgnored() {
        Observations base = Streams.normalObservations();
        Observations noUsage = with(base, Streams.normal(false, 0));
        assertThat(findings(noUsage).get("usage_when_asked").verdict()).as("no usage")
                .isEqualTo(Finding.Verdict.WARN);
        Observations always = new Observations(base.basic(), base.repeat(), Streams.normal(true, 0), base.thinkingOn(),
                base.thinkingOff(), base.oversize(), base.models(), base.metrics());
        assertThat(findings(always).get("usage_unasked").value()).as("usage unasked").isEqualTo("yes");
        ProbeExchange longAnswer = Streams.sse(Streams.role(), Streams.content("a"), Streams.usage(40, 0),
                "data: [DONE]");
        assertThat(findings(with(base, longAnswer)).get("max_tokens").value()).as("max_tokens")
                .isEqualTo("ignored");
    }

    @Test
    void noWindowFromModelsImpliesMaxModelLenFromTheOversizeError() {
        Observations base = Streams.normalObservations();
        Observations o = new Observations(base.basic(), base.repeat(), base.unasked(), base.thinkingOn(),
                base.thinkingOff(), base.oversize(), Streams.body(200, "application/json", "{\"data\":[{\"id\":\"m\"}]}"),
                Streams.body(404, "text/plain", "Not Found"));
        Map<String, Finding> f = findings(o);
        assertThat(f.get("context_window").value()).as("window").isEqualTo("unknown");
        assertThat(f.get("context_window").detail()).as("window detail").contains("states 4096 tokens");
        assertThat(f.get("implied_options").value()).as("implied").contains("--max-model-len 4096");
        assertThat(f.get("metrics").value()).as("metrics").isEqualTo("no");
    }

    @Test
    void theJsonHasOneTopLevelKeyPerFindingAndMasksSecrets() throws Exception {
        ProbeTarget secret = new ProbeTarget("http://127.0.0.1:1/v1", "m", ApiEndpoint.CHAT, ApiKey.none(), List.of(),
                ClientTls.DEFAULT, SecretMask.of(List.of("sk-secret-123456")));
        Observations base = Streams.normalObservations();
        Observations o = with(base, Streams.body(401, "application/json",
                "{\"error\":{\"message\":\"bad key sk-secret-123456\"}}"));
        CheckReport r = CheckReport.of(secret, o);
        CheckRenderer renderer = new CheckRenderer(secret.mask());
        String json = renderer.json(r);
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        for (Finding f : r.findings()) {
            assertThat(root.path(f.key()).path("verdict").asText()).as("verdict of %s in %s", f.key(), json)
                    .isEqualTo(f.verdict().label());
            assertThat(root.path(f.key()).path("detail").isTextual()).as("detail of %s", f.key()).isTrue();
        }
        assertThat(root.path("measurable").asBoolean()).as("measurable").isFalse();
        assertThat(json).as("json").doesNotContain("sk-secret-123456");
        assertThat(renderer.table(r)).as("table").doesNotContain("sk-secret-123456").contains("streaming")
                .contains("not measurable: streaming");
    }

    @Test
    void textCompletionsHaveNoRoleChunkAndImplyTheirEndpoint() {
        ProbeTarget completions = new ProbeTarget("http://127.0.0.1:1/v1", "m", ApiEndpoint.COMPLETIONS,
                ApiKey.none(), List.of(), ClientTls.DEFAULT, SecretMask.NONE);
        ProbeExchange text = Streams.sse("data: {\"choices\":[{\"index\":0,\"text\":\"Hi\"}]}",
                Streams.usage(1, 0), "data: [DONE]");
        Observations base = Streams.normalObservations();
        ProbeExchange notSent = ProbeExchange.failed("not sent: chat only");
        Observations o = new Observations(text, text, text, notSent, notSent, base.oversize(), base.models(),
                base.metrics());
        CheckReport r = CheckReport.of(completions, o);
        Map<String, Finding> f = r.byKey();
        assertThat(r.measurable()).as("measurable, reason %s", r.reason()).isTrue();
        assertThat(f.get("role_chunk_first").value()).as("role").isEqualTo("n/a");
        assertThat(f.get("thinking_off").detail()).as("thinking off").isEqualTo("enable_thinking false: not sent: chat only");
        assertThat(f.get("implied_options").value()).as("implied").startsWith("--endpoint completions");
    }

    /** Fresh-user pass: a 401, a 404 or no answer left the stream findings stating defaults as facts. */
    @Test
    void whenTheStreamedRequestFailsItsFindingsAreUnknownNotDefaults() {
        ProbeExchange denied = Streams.body(401, "application/json", "{\"error\":{\"message\":\"bad key\"}}");
        Observations o = new Observations(denied, denied, denied, denied, denied, denied,
                Streams.normalObservations().models(), Streams.normalObservations().metrics());
        Map<String, Finding> f = findings(o);
        for (String key : List.of("error_in_stream", "prefix_cache", "server_timings", "reasoning_field",
                "oversize_prompt", "implied_options", "usage_when_asked")) {
            assertThat(f.get(key)).as("finding %s after a 401", key)
                    .extracting(Finding::verdict, Finding::value).containsExactly(Finding.Verdict.UNKNOWN, "unknown");
            assertThat(f.get(key).detail()).as("detail of %s", key).contains("HTTP 401");
        }
        assertThat(f.get("streaming").verdict()).as("streaming after a 401").isEqualTo(Finding.Verdict.FAIL);
    }

    @Test
    void anAuthOrModelErrorToTheOversizePromptIsNotACleanRefusalOfItsSize() {
        Observations n = Streams.normalObservations();
        Observations o = new Observations(n.basic(), n.repeat(), n.unasked(), n.thinkingOn(), n.thinkingOff(),
                Streams.body(404, "application/json", "{\"error\":{\"message\":\"model m not found\"}}"),
                n.models(), n.metrics());
        Finding oversize = findings(o).get("oversize_prompt");
        assertThat(oversize.verdict()).as("oversize finding %s", oversize).isEqualTo(Finding.Verdict.WARN);
        assertThat(oversize.detail()).as("its detail").contains("another reason than the prompt's size");
    }

    @Test
    void aModelThatModelsDoesNotListGetsNoWindowOfAnotherModel() {
        Observations n = Streams.normalObservations();
        Observations o = new Observations(n.basic(), n.repeat(), n.unasked(), n.thinkingOn(), n.thinkingOff(),
                n.oversize(), Streams.body(200, "application/json",
                        "{\"data\":[{\"id\":\"other\",\"max_model_len\":32768}]}"), n.metrics());
        Finding w = findings(o).get("context_window");
        assertThat(w).as("context window for an unlisted --model").extracting(Finding::verdict, Finding::value)
                .containsExactly(Finding.Verdict.WARN, "unknown");
        assertThat(w.detail()).as("its detail").contains("'m' is not among the ids").contains("other");
    }

    @Test
    void aServerTimingHeaderIsAServerTiming() {
        Observations n = Streams.normalObservations();
        ProbeExchange b = n.basic();
        ProbeExchange timed = new ProbeExchange(b.status(), b.contentType(), Map.of("Server-Timing", "ttft;dur=12.5"),
                b.items(), b.body(), null);
        Finding t = findings(with(n, timed)).get("server_timings");
        assertThat(t.value()).as("server timings with a Server-Timing header: %s", t).isEqualTo("Server-Timing");
        assertThat(t.detail()).as("its detail").contains("ttft;dur=12.5");
    }

    @Test
    void noUsageChunkSaysWhichNumbersWillBeEmpty() {
        Observations n = Streams.normalObservations();
        Finding u = findings(with(n, Streams.normal(false, 0))).get("usage_when_asked");
        assertThat(u.verdict()).as("usage finding %s", u).isEqualTo(Finding.Verdict.WARN);
        assertThat(u.detail()).as("its detail").contains("throughput").contains("empty").doesNotContain("estimates");
    }
}
