package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-thread parser reset per payload: reused, and reading every payload exactly as a new parser would. */
class ReusableUtf8ParserTest {
    private static final String[] PAYLOADS = {
        "{\"id\":\"c-1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\"}}]}",
        "{\"choices\":[{\"delta\":{\"content\":\"a\\u00e9\\\"b\"}}],\"usage\":{\"prompt_tokens\":12}}",
        "{\"choices\":[{\"delta\":",                    // incomplete: ends inside the value
        "{\"a\":1} x",                                   // trailing data
        "{\"a\":1}}",                                    // trailing close
        "\uFEFF{\"a\":1}",                               // a UTF-8 BOM
        "[NaN, Infinity, -Infinity, 1e400, 123456789012345678901234567890, 0.5]",
        "{\"x\":\"caf\u00e9 \uD83D\uDE00\",\"y\":[[[{\"z\":null}]]],\"t\":true,\"f\":false}",
        "{\"unterminated\":\"abc",
        "{\"bad\":tru}",
        "",
        "   ",
        "\"just a string\"",
        "{\"choices\":[],\"usage\":{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}",
    };

    @Test
    void theThreadsParserIsReusedAcrossPayloadsAndANestedUseGetsItsOwn() {
        byte[] b = "{}".getBytes(StandardCharsets.UTF_8);
        ReusableUtf8Parser first = ReusableUtf8Parser.acquire(b, 0, b.length);
        ReusableUtf8Parser nested = ReusableUtf8Parser.acquire(b, 0, b.length);
        assertThat(nested).as("a parser acquired while the thread's one is in use").isNotSameAs(first);
        nested.release(true);
        first.release(true);
        ReusableUtf8Parser second = ReusableUtf8Parser.acquire(b, 0, b.length);
        second.release(true);
        assertThat(second).as("the thread's parser for the next payload").isSameAs(first);
    }

    @Test
    void aParserWhoseParseDidNotFinishIsDropped() {
        byte[] b = "{}".getBytes(StandardCharsets.UTF_8);
        ReusableUtf8Parser first = ReusableUtf8Parser.acquire(b, 0, b.length);
        first.release(false);
        ReusableUtf8Parser next = ReusableUtf8Parser.acquire(b, 0, b.length);
        next.release(true);
        assertThat(next).as("the thread's parser after a parse that threw").isNotSameAs(first);
    }

    @Test
    void everyPayloadReadsAsWithANewParserWhateverCameBefore() throws IOException {
        for (int round = 0; round < 3; round++) {
            for (String payload : PAYLOADS) {
                byte[] b = ("data: " + payload + "\n\n").getBytes(StandardCharsets.UTF_8);
                int off = 6;
                int len = b.length - 8;
                List<String> fresh;
                try (JsonParser p = Utf8JsonFactory.INSTANCE.createParser(b, off, len)) {
                    fresh = tokens(p);
                }
                ReusableUtf8Parser p = ReusableUtf8Parser.acquire(b, off, len);
                List<String> reused = tokens(p);
                p.release(true); // reused even after an error here, to check the reset alone
                assertThat(reused).as("tokens of %s (round %d) with the reused parser", payload, round)
                        .isEqualTo(fresh);
            }
        }
    }

    @Test
    void chunksDecodeTheSameBetweenInvalidAndIncompletePayloads() {
        byte[] good = PAYLOADS[1].getBytes(StandardCharsets.UTF_8);
        for (String bad : PAYLOADS) {
            byte[] b = bad.getBytes(StandardCharsets.UTF_8);
            ChunkDecoder.decode(b, 0, b.length, new DecodedChunk());
            DecodedChunk out = new DecodedChunk();
            assertThat(ChunkDecoder.decode(good, 0, good.length, out)).as("after %s", bad).isEqualTo(Parse.PARSED);
            assertThat(out.contentDeltas()).as("content deltas after %s", bad).isEqualTo(1);
            assertThat(out.promptTokens()).as("prompt tokens after %s", bad).isEqualTo(12);
        }
    }

    /** The tokens with their text, numbers and context, then the error's message (location aside) if one. */
    private static List<String> tokens(JsonParser p) {
        List<String> seen = new ArrayList<>();
        try {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                String v = switch (t) {
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberType() + ":" + p.getNumberValue();
                    default -> p.getText();
                };
                seen.add(t + " " + v + " @" + p.getParsingContext().getNestingDepth() + "/"
                        + p.getParsingContext().getCurrentIndex() + " name=" + p.currentName()
                        + " off=" + p.currentTokenLocation().getByteOffset()
                        + " col=" + p.currentTokenLocation().getColumnNr());
            }
            seen.add("end");
        } catch (IOException | RuntimeException ex) {
            String m = String.valueOf(ex.getMessage());
            int at = m.indexOf("\n at [");
            seen.add(ex.getClass().getSimpleName() + ": " + (at < 0 ? m : m.substring(0, at)));
        }
        return seen;
    }
}
