package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The request options' values (issue 15 part 3): -H, --extra-body and --endpoint, and their one-line errors. */
class RequestOptionsParseTest {
    private static String error(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void aHeaderIsNameColonValueWithTheSpacesAroundTheValueDropped() {
        assertEquals(new ExtraHeader("X-Tenant", "team a"), ExtraHeader.parse("X-Tenant:   team a  "));
        assertEquals(new ExtraHeader("X-Empty", ""), ExtraHeader.parse("X-Empty:"));
        assertEquals(new ExtraHeader("Authorization", "Bearer a:b"), ExtraHeader.parse("Authorization: Bearer a:b"));
        assertTrue(ExtraHeader.parse("authorization: x").isAuthorization());
        assertEquals("X-Key: ***", ExtraHeader.parse("X-Key: secret").toString(), "the value is never printed");
    }

    @Test
    void aBadHeaderSaysWhyWithoutItsValue() {
        assertEquals("-H must be 'Name: value' (no colon)", error(() -> ExtraHeader.parse("Bearer secret")));
        assertEquals("-H must be 'Name: value' (the name is empty)", error(() -> ExtraHeader.parse(": secret")));
        assertEquals("-H header name 'X Key' is not a valid HTTP header name", error(() -> ExtraHeader.parse("X Key: s")));
        assertEquals("-H X-A: the value may not contain a line break", error(() -> ExtraHeader.parse("X-A: a\r\nB: c")));
        assertEquals("-H content-length: capstream sets this header itself", error(() -> ExtraHeader.parse("content-length: 1")));
        assertEquals("-H Accept-Encoding: capstream sets this header itself", error(() -> ExtraHeader.parse("Accept-Encoding: gzip")));
    }

    @Test
    void anExtraBodyIsAJsonObjectWithoutTheMembersThatDefineTheMeasurement() {
        ExtraBody b = ExtraBody.parse(" {\"temperature\": 0.7, \"top_p\": 0.9} ");
        assertTrue(b.has("temperature"));
        assertFalse(b.has("seed"));
        assertEquals("{\"temperature\":0.7,\"top_p\":0.9}", b.json());
        assertEquals("--extra-body must be a JSON object such as {\"temperature\":0.7}, got array",
                error(() -> ExtraBody.parse("[1]")));
        assertThat(error(() -> ExtraBody.parse("{\"a\":"))).startsWith("--extra-body is not valid JSON: ");
        assertEquals("--extra-body may not set \"max_tokens\": capstream sets it from --max-tokens",
                error(() -> ExtraBody.parse("{\"max_tokens\":5}")));
        // fresh-user findings: trailing data and a second object were dropped silently, a duplicate member won silently
        assertThat(error(() -> ExtraBody.parse("{\"a\":1} trailing"))).startsWith("--extra-body is not valid JSON: ");
        assertThat(error(() -> ExtraBody.parse("{\"a\":1}{\"b\":2}"))).startsWith("--extra-body is not valid JSON: ");
        assertThat(error(() -> ExtraBody.parse("{\"a\":1,\"a\":2}"))).contains("Duplicate field 'a'");
        assertEquals("--extra-body may not turn off stream_options.include_usage: the output tokens are counted from the"
                + " usage chunk", error(() -> ExtraBody.parse("{\"stream_options\":{\"include_usage\":false}}")));
        assertTrue(ExtraBody.parse("{\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}}")
                .has("stream_options"));
        for (String reserved : ExtraBody.RESERVED) {
            assertThat(error(() -> ExtraBody.parse("{\"" + reserved + "\":1}"))).as(reserved)
                    .contains("\"" + reserved + "\"");
        }
    }

    @Test
    void theEndpointIsChatCompletionsResponsesOrMessages() {
        assertEquals(ApiEndpoint.CHAT, ApiEndpoint.parse(null));
        assertEquals(ApiEndpoint.COMPLETIONS, ApiEndpoint.parse(" Completions "));
        assertEquals("/chat/completions", ApiEndpoint.CHAT.path());
        assertEquals("/completions", ApiEndpoint.COMPLETIONS.path());
        assertEquals(ApiEndpoint.RESPONSES, ApiEndpoint.parse("responses"));
        assertEquals("/responses", ApiEndpoint.RESPONSES.path());
        assertEquals(ApiEndpoint.MESSAGES, ApiEndpoint.parse("MESSAGES"));
        assertEquals("/messages", ApiEndpoint.MESSAGES.path());
        assertEquals("--endpoint must be chat, completions, responses, messages, embeddings or rerank, got 'anthropic'",
                error(() -> ApiEndpoint.parse("anthropic")));
    }
}
