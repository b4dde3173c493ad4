package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class NonStreamBodyTest {
    private static String message(String body) {
        return NonStreamBody.serverMessage(body, false);
    }

    @Test
    void serverMessageFromTheUsualErrorShapes() {
        assertEquals("CUDA out of memory", message("{\"error\":{\"message\":\"CUDA out of memory\",\"type\":\"x\",\"code\":500}}"));
        assertEquals("model 'x' not found", message("{\"error\":\"model 'x' not found\"}"));
        assertEquals("The model `m` does not exist.",
                message("{\"object\":\"error\",\"message\":\"The model `m` does not exist.\",\"type\":\"NotFoundError\",\"code\":404}"));
        assertEquals("top", message("{\"error\":{\"code\":1},\"message\":\"top\"}"), "error without a message");
        assertEquals("Not Found", message("{\"error\":null,\"detail\":\"Not Found\"}"));
        assertEquals("[{\"loc\":[\"body\",\"model\"],\"msg\":\"field required\"}]",
                message("{\"detail\":[{\"loc\":[\"body\",\"model\"],\"msg\":\"field required\"}]}"), "non-strings as JSON");
        assertEquals("{\"foo\":1}", message(" {\"foo\":1}\n"), "none of them: the body");
        assertEquals("upstream timed out", message("\n upstream timed out \r\n"));
        assertEquals("{\"message\":\"a\"} trailing", message("{\"message\":\"a\"} trailing"), "not JSON: the body");
        assertEquals("", message(" \n"));
    }

    @Test
    void completionObjectIsDescribedOnlyForA2xx() {
        String completion = "{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"hi\"}}]}";
        assertEquals("it answered a non-streaming completion (object \"chat.completion\"; was \"stream\": true ignored?)",
                NonStreamBody.serverMessage(completion, true));
        assertEquals("it answered a non-streaming completion (was \"stream\": true ignored?)",
                NonStreamBody.serverMessage("{\"choices\":[]}", true));
        assertEquals("nope", NonStreamBody.serverMessage("{\"choices\":[],\"error\":{\"message\":\"nope\"}}", true));
    }

    @Test
    void jsonContentTypes() {
        assertTrue(NonStreamBody.isJson("application/json"));
        assertTrue(NonStreamBody.isJson(" Application/JSON ; charset=utf-8"));
        assertTrue(NonStreamBody.isJson("application/problem+json"));
        assertFalse(NonStreamBody.isJson("text/event-stream"));
        assertFalse(NonStreamBody.isJson("text/plain; charset=utf-8"));
        assertFalse(NonStreamBody.isJson("application/x-ndjson"));
        assertFalse(NonStreamBody.isJson(null));
    }

    @Test
    void failureTexts() {
        NonStreamBody b = NonStreamBody.httpError(500, "Internal Server Error");
        assertEquals(new RequestError(ErrorTypes.HTTP_ERROR, "HTTP Error 500: Internal Server Error", false), b.error());
        b.append(Buffer.buffer("{\"error\":{\"message\":\"boom\"}}"));
        assertEquals(new RequestError(ErrorTypes.HTTP_ERROR, "HTTP Error 500: Internal Server Error: boom", false), b.error());
        NonStreamBody noReason = NonStreamBody.httpError(502, null);
        assertEquals("HTTP Error 502: ", noReason.error().message(), "the reference's text for an empty reason");
        noReason.append(Buffer.buffer("bad gateway"));
        assertEquals("HTTP Error 502: bad gateway", noReason.error().message());
        NonStreamBody n = NonStreamBody.notStreamed("application/json");
        assertEquals(new RequestError(ErrorTypes.VALUE_ERROR, "endpoint did not stream (Content-Type: application/json): empty body",
                false), n.error());
        n.append(Buffer.buffer(new byte[] {'{', '"', 'm', 'e', 's', 's', 'a', 'g', 'e', '"', ':', '"', (byte) 0xff, '"', '}'}));
        assertEquals("endpoint did not stream (Content-Type: application/json): \ufffd", n.error().message(), "invalid UTF-8 replaced");
    }

    @Test
    void keepsOnlyTheFirst64KiB() {
        NonStreamBody b = NonStreamBody.httpError(500, "Internal Server Error");
        Buffer slice = Buffer.buffer("y".repeat(10_000));
        int calls = 0;
        while (b.append(slice)) {
            calls++;
        }
        assertEquals(6, calls, "the 7th 10 000-byte slice fills 65 536 bytes");
        assertEquals(70_000, b.bytes());
        assertFalse(b.append(slice));
        assertEquals(80_000, b.bytes(), "counted, not kept");
        RequestError e = b.error();
        assertEquals(ErrorTypes.MAX_MESSAGE, e.message().length());
        assertTrue(e.truncated());
        assertThat(e.message()).startsWith("HTTP Error 500: Internal Server Error: yyy");
    }
}
