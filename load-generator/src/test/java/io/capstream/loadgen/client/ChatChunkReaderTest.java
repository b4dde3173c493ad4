package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link ChatChunkReader}, the fast path of {@link ChunkDecoder}, against the Jackson path it stands in for: every
 * payload gives the same {@link Parse} and the same {@link DecodedChunk}, field by field, through
 * {@link ChunkDecoder#decode} (fast path, else Jackson) and {@link ChunkDecoder#decodeWithJackson}. The payloads: every
 * {@code data:} line of the test resources' captured streams (llama-server's chat, Responses and Messages streams),
 * every line of every string literal in the load generator's tests, generated chunks (member orders, whitespace,
 * missing and extra members, strings with every escape, unicode, surrogate pairs, invalid UTF-8, numbers in every
 * form, usage, reasoning, tool calls, errors, {@code choices: []}), random byte edits of real chunks, and every prefix
 * of a real chunk. Deterministic (fixed seeds).
 */
class ChatChunkReaderTest {
    private static final String VLLM = "{\"id\":\"chatcmpl-7f3a\",\"object\":\"chat.completion.chunk\",\"created\":"
            + "1733000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\"},"
            + "\"logprobs\":null,\"finish_reason\":null}]}";
    private static final String ORACLE = "{\"id\":\"chatcmpl-12\",\"object\":\"chat.completion.chunk\",\"choices\":"
            + "[{\"index\":0,\"delta\":{\"content\":\" tok\"}}]}";

    private int fast;
    private int compared;

    @Test
    void everyCapturedStreamLineDecodesAsWithJackson() throws IOException {
        List<byte[]> payloads = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/resources"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".sse")).sorted().toList()) {
                for (byte[] line : lines(Files.readAllBytes(f))) {
                    payloads.add(payload(line));
                }
            }
        }
        assertThat(payloads).as("data lines of the captured streams").hasSizeGreaterThan(200);
        payloads.forEach(this::compareAllWays);
        assertThat(fast).as("payloads read by the fast path, of %d", compared).isGreaterThan(compared / 4);
    }

    @Test
    void everyLineOfTheTestsStringLiteralsDecodesAsWithJackson() throws IOException {
        List<byte[]> payloads = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                for (String literal : literals(Files.readString(f))) {
                    for (String line : literal.split("\n", -1)) {
                        payloads.add(payload(line.getBytes(StandardCharsets.UTF_8)));
                    }
                }
            }
        }
        assertThat(payloads).as("lines of the tests' string literals").hasSizeGreaterThan(2000);
        payloads.forEach(this::compareAllWays);
        assertThat(fast).as("literal lines read by the fast path, of %d", compared).isGreaterThan(100);
    }

    @Test
    void generatedChunksDecodeAsWithJackson() {
        Random r = new Random(33);
        for (int i = 0; i < 30_000; i++) {
            compareOneWay(new ChunkGen(r).chunk(), r);
        }
        assertThat(fast).as("generated chunks read by the fast path, of %d", compared).isGreaterThan(compared / 5);
    }

    @Test
    void randomByteEditsOfRealChunksDecodeAsWithJackson() {
        Random r = new Random(4);
        byte[][] seeds = {bytes(VLLM), bytes(ORACLE), bytes("{\"id\":\"x\",\"choices\":[],\"usage\":{\"prompt_tokens\":192,"
                + "\"completion_tokens\":64,\"total_tokens\":256,\"prompt_tokens_details\":{\"cached_tokens\":128}}}"),
            bytes("{\"choices\":[{\"delta\":{\"reasoning_content\":\"th\\u00e9 \\\"q\\\" \\ud83d\\ude00\",\"content\":null},"
                + "\"finish_reason\":\"length\",\"text\":\"é😀\"}],\"error\":null}")};
        byte[] alphabet = bytes("{}[]\":,\\ \t\n-+.0123456789eEtrufalsn\u0001xu/bfd");
        for (int i = 0; i < 40_000; i++) {
            byte[] b = seeds[r.nextInt(seeds.length)].clone();
            int edits = 1 + r.nextInt(3);
            for (int k = 0; k < edits; k++) {
                int at = r.nextInt(b.length);
                int kind = r.nextInt(4);
                byte x = r.nextInt(10) == 0 ? (byte) (0x80 + r.nextInt(0x80)) : alphabet[r.nextInt(alphabet.length)];
                if (kind == 0) {
                    b[at] = x;
                } else if (kind == 1) {
                    b = splice(b, at, 1, new byte[0]);
                } else {
                    b = splice(b, at, 0, new byte[] {x});
                }
                if (b.length == 0) {
                    b = new byte[] {'{'};
                }
            }
            compareOneWay(b, r);
        }
        assertThat(fast).as("edited chunks still read by the fast path, of %d", compared).isGreaterThan(compared / 10);
    }

    @Test
    void everyPrefixOfARealChunkDecodesAsWithJackson() {
        for (String chunk : List.of(VLLM, ORACLE, "{\"choices\":[{\"delta\":{\"content\":\"é😀\\n\\u00e9\"}}],"
                + "\"usage\":{\"prompt_tokens\":1,\"prompt_tokens_details\":{\"cached_tokens\":0}}}")) {
            byte[] b = bytes(chunk);
            for (int n = 0; n <= b.length; n++) {
                compareAllWays(java.util.Arrays.copyOf(b, n));
            }
        }
        assertThat(fast).as("only the whole chunks are read by the fast path").isEqualTo(3 * 8);
    }

    @Test
    void theCommonShapesTakeTheFastPath() {
        for (String json : List.of(VLLM, ORACLE,
                "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
                        + "{\"role\":\"assistant\",\"content\":\"\"}}]}",
                "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\"olas\"}}],\"created\":1796451010,"
                        + "\"id\":\"chatcmpl-F9SZ\",\"model\":\"random-llama-20m\",\"system_fingerprint\":\"b1-80fb11a\","
                        + "\"object\":\"chat.completion.chunk\"}",
                "{\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                        + "\"delta\":{\"role\":null,\"content\":\" a\",\"reasoning_content\":null,\"tool_calls\":null},"
                        + "\"logprobs\":null,\"finish_reason\":null,\"matched_stop\":null}],\"usage\":null}",
                "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"hm\"}}]}",
                "{\"id\":\"x\",\"choices\":[],\"usage\":{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}",
                "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
                "{ \"id\" : \"x\" , \"choices\" : [ { \"delta\" : { \"content\" : \"\\\"\\u00e9\\n\" } } ] }")) {
            assertThat(ChatChunkReader.read(bytes(json), 0, json.length(), new DecodedChunk(), false))
                    .as("fast path for %s", json).isTrue();
        }
    }

    @Test
    void anEscapedStopIsTheSharedStopAsWithJackson() {
        byte[] b = bytes("{\"choices\":[{\"finish_reason\":\"\\u0073top\"}]}");
        DecodedChunk viaJackson = new DecodedChunk();
        DecodedChunk viaFast = new DecodedChunk();
        ChunkDecoder.decodeWithJackson(b, 0, b.length, viaJackson, false);
        assertThat(ChatChunkReader.read(b, 0, b.length, viaFast, false)).as("fast path for an escaped stop").isTrue();
        assertThat(viaJackson.finishReason()).as("Jackson's finish reason").isSameAs("stop");
        assertThat(viaFast.finishReason()).as("the fast path's finish reason").isSameAs("stop");
    }

    @Test
    void theShapesItDoesNotHandleAreLeftToJackson() {
        for (String json : List.of(
                "{\"choices\":[],\"error\":{\"message\":\"boom\",\"type\":\"x\",\"code\":500}}",
                "{\"error\":\"boom\"}", "{\"error\":\"\"}", "{\"error\":0}", "{\"error\":true}", "{\"error\":[]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"function_call\":{\"name\":\"f\",\"arguments\":\"{}\"}}}]}",
                "{\"choices\":[],\"timings\":{\"cache_n\":0,\"prompt_n\":27,\"prompt_ms\":18.696}}",
                "{\"choices\":null}", "{\"choices\":\"x\"}", "{\"choices\":{}}", "{\"choices\":1}", "{\"choices\":[1]}",
                "{\"choices\":[null]}", "{\"\\u0069d\":\"x\"}", "{\"choi\\u0063es\":null}",
                "{\"choices\":[{\"delta\":{\"reasoning_content\":7}}]}",
                "{\"choices\":[{\"delta\":{\"reasoning_content\":{\"a\":1}}}]}",
                "{\"usage\":{\"completion_tokens\":1234567890123456789}}",
                "{\"usage\":{\"prompt_tokens_details\":{\"cached_tokens\":99999999999999999999}}}",
                "{\"x\":NaN}", "{\"x\":-Infinity}", "{\"x\":01}", "{\"x\":1.}", "{\"x\":.5}", "{\"x\":+1}",
                "{\"x\":\"a\\x\"}", "{\"x\":\"a\\u12\"}", "{\"x\":\"\u0001\"}", "{\"x\":tru}", "{\"x\":nulls}",
                "{\"x\":1}x", "{\"x\":1}{}", "[]", "\"x\"", "1", "null", "{\"x\":1", "{\"x\":", "{\"x\"", "{",
                "{\"x\":1,}", "{,}", "{\"x\" 1}", "{\"x\":[1,]}", "{\"x\":\u000b1}", "\ufeff{}",
                "{\"x\":" + "[".repeat(40) + "]".repeat(40) + "}", "{\"x\":1" + "0".repeat(70) + "}")) {
            byte[] b = bytes(json);
            assertThat(ChatChunkReader.read(b, 0, b.length, new DecodedChunk(true), true))
                    .as("fast path for %s", json).isFalse();
        }
        byte[][] invalidUtf8 = {{'{', '"', 'x', '"', ':', '"', (byte) 0xc0, (byte) 0x80, '"', '}'},
            {'{', '"', 'x', '"', ':', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', '}'},
            {'{', '"', 'x', '"', ':', '"', (byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"', '}'},
            {'{', '"', 'x', '"', ':', '"', (byte) 0xe2, (byte) 0x82, '"', '}'},
            {'{', '"', (byte) 0xff, '"', ':', '1', '}'}};
        for (byte[] b : invalidUtf8) {
            assertThat(ChatChunkReader.read(b, 0, b.length, new DecodedChunk(), false))
                    .as("fast path for %s", HexFormat.of().formatHex(b)).isFalse();
        }
        byte[] big = bytes("{\"x\":\"" + "a".repeat(ChatChunkReader.MAX_BYTES) + "\"}");
        assertThat(ChatChunkReader.read(big, 0, big.length, new DecodedChunk(), false)).as("a payload of %d bytes",
                big.length).isFalse();
    }

    /** Compares the two paths for the eight combinations of the decoder's modes. */
    private void compareAllWays(byte[] payload) {
        for (int mode = 0; mode < 8; mode++) {
            compare(payload, (mode & 1) != 0, (mode & 2) != 0, (mode & 4) != 0);
        }
    }

    /** Compares the two paths in the default mode and one random mode. */
    private void compareOneWay(byte[] payload, Random r) {
        compare(payload, false, false, true);
        compare(payload, r.nextBoolean(), r.nextBoolean(), r.nextBoolean());
    }

    private void compare(byte[] payload, boolean textChoices, boolean keepReply, boolean wantServerId) {
        byte[] framed = new byte[payload.length + 7]; // at an offset into a larger array, as a line is
        System.arraycopy(payload, 0, framed, 3, payload.length);
        framed[0] = 'x';
        framed[framed.length - 1] = '}';
        DecodedChunk viaJackson = chunk(keepReply, wantServerId);
        DecodedChunk viaDecode = chunk(keepReply, wantServerId);
        DecodedChunk viaFast = chunk(keepReply, wantServerId);
        Parse expected = ChunkDecoder.decodeWithJackson(framed, 3, payload.length, viaJackson, textChoices);
        Parse actual = ChunkDecoder.decode(framed, 3, payload.length, viaDecode, textChoices);
        boolean tookFast = ChatChunkReader.read(framed, 3, payload.length, viaFast, textChoices);
        String what = new String(payload, StandardCharsets.UTF_8) + " (hex " + HexFormat.of().formatHex(payload)
                + ", textChoices " + textChoices + ", keepReply " + keepReply + ", wantServerId " + wantServerId + ")";
        assertThat(actual).as("parse of %s", what).isEqualTo(expected);
        if (expected == Parse.PARSED) {
            assertThat(describe(viaDecode)).as("decoded %s", what).isEqualTo(describe(viaJackson));
        }
        if (tookFast) {
            assertThat(expected).as("Jackson's parse of the fast path's %s", what).isEqualTo(Parse.PARSED);
            assertThat(describe(viaFast)).as("fast path's %s", what).isEqualTo(describe(viaJackson));
            fast++;
        }
        compared++;
    }

    private static DecodedChunk chunk(boolean keepReply, boolean wantServerId) {
        DecodedChunk c = new DecodedChunk(keepReply);
        c.wantServerId(wantServerId);
        c.contentText("stale"); // reset must clear it on both paths
        return c;
    }

    /** @return every value a chunk exposes, one per line */
    static String describe(DecodedChunk c) {
        StringBuilder sb = new StringBuilder();
        sb.append("usage=").append(c.usage()).append(" prompt=").append(c.promptTokens())
                .append(" completion=").append(c.completionTokens()).append(" cached=").append(c.cachedTokens())
                .append("\ncontentDeltas=").append(c.contentDeltas()).append(" reasoningDeltas=")
                .append(c.reasoningDeltas()).append(" toolCallDeltas=").append(c.toolCallDeltas())
                .append("\nfinishReason=").append(c.finishReason())
                .append("\nmalformed=").append(c.malformed()).append(' ').append(c.malformedToken())
                .append("\nerror=").append(c.errorToken()).append(" message=").append(c.errorMessage())
                .append(" type=").append(c.errorType()).append(" code=").append(c.errorCode())
                .append("\ncontentText=[").append(c.contentText()).append(']')
                .append("\nresponseId=").append(c.keptResponseId()).append(" serverId=").append(c.serverId())
                .append("\ntimings=").append(c.timings().cacheN()).append(' ').append(c.timings().promptN())
                .append(' ').append(c.timings().promptMs()).append(' ').append(c.timings().predictedN())
                .append(' ').append(c.timings().predictedMs());
        for (int i = 0; i < c.keptToolCallDeltas(); i++) {
            sb.append("\ncall ").append(c.keptToolCallIndex(i)).append(' ').append(c.keptToolCallId(i)).append(' ')
                    .append(c.keptToolCallName(i)).append(' ').append(c.keptToolCallArguments(i));
        }
        return sb.toString();
    }

    private static List<byte[]> lines(byte[] body) {
        List<byte[]> out = new ArrayList<>();
        int s = 0;
        for (int i = 0; i <= body.length; i++) {
            if (i == body.length || body[i] == '\n') {
                out.add(java.util.Arrays.copyOfRange(body, s, i));
                s = i + 1;
            }
        }
        return out;
    }

    /** @return the line after {@code data:}, stripped of the bytes the SSE framing strips */
    private static byte[] payload(byte[] line) {
        int s = 0;
        int e = line.length;
        String text = new String(line, StandardCharsets.ISO_8859_1);
        if (text.stripLeading().startsWith("data:")) {
            s = text.indexOf("data:") + 5;
        }
        while (s < e && (line[s] == ' ' || line[s] >= 0x09 && line[s] <= 0x0d)) {
            s++;
        }
        while (e > s && (line[e - 1] == ' ' || line[e - 1] >= 0x09 && line[e - 1] <= 0x0d)) {
            e--;
        }
        return java.util.Arrays.copyOfRange(line, s, e);
    }

    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
    private static final Pattern CONCAT = Pattern.compile("\"\\s*\\+\\s*\"");

    /** @return the string literals of a Java source, adjacent ones joined where they are concatenated */
    private static List<String> literals(String source) {
        List<String> out = new ArrayList<>();
        Matcher m = LITERAL.matcher(CONCAT.matcher(source).replaceAll(""));
        while (m.find()) {
            out.add(unescape(m.group(1)));
        }
        return out;
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                sb.append(c);
                continue;
            }
            char x = s.charAt(++i);
            switch (x) {
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case '0' -> sb.append('\0');
                case 'u' -> {
                    if (i + 4 < s.length()) {
                        try {
                            sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                            i += 4;
                        } catch (NumberFormatException ex) {
                            sb.append("\\u");
                        }
                    }
                }
                default -> sb.append(x);
            }
        }
        return sb.toString();
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Writes one random chat chunk, mostly of the shapes servers send, sometimes not. */
    private static final class ChunkGen {
        private static final String[] PIECES = {"a", " ", "tok", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r",
            "\\t", "\\u00e9", "\\u00E9", "\\ud83d\\ude00", "\\ud800", "\\udfff", "\\u0000", "\\u001f", "é", "中",
            "😀", "ü", "\u007f", "\u2028", "{", "}", "[", "]", ":", ",", "\\'", "\\x", "\\u12g4"};
        private static final String[] NUMBERS = {"0", "-0", "7", "12", "-5", "1.5", "1e3", "1E+3", "2.0e-2", "01",
            "1.", ".5", "-", "+1", "99999999999999999999", "123456789012345678", "1234567890123456789", "NaN",
            "Infinity", "-Infinity", "1e999", "0.0", "-1.0", "1e", "1e+"};
        private final Random r;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        ChunkGen(Random r) {
            this.r = r;
        }

        byte[] chunk() {
            List<Runnable> members = new ArrayList<>();
            if (r.nextInt(5) > 0) {
                members.add(() -> member("id", () -> pick(() -> string(8), () -> raw("null"), () -> raw("7"))));
            }
            if (r.nextBoolean()) {
                members.add(() -> member("object", () -> raw("\"chat.completion.chunk\"")));
            }
            if (r.nextBoolean()) {
                members.add(() -> member("created", this::number));
            }
            if (r.nextBoolean()) {
                members.add(() -> member("model", () -> string(6)));
            }
            if (r.nextInt(10) > 0) {
                members.add(() -> member("choices", this::choices));
            }
            if (r.nextInt(4) == 0) {
                members.add(() -> member("usage", this::usage));
            }
            if (r.nextInt(12) == 0) {
                members.add(() -> member("error", () -> pick(() -> raw("null"), () -> raw("false"), () -> string(3),
                        () -> raw("{\"message\":\"m\",\"type\":\"t\",\"code\":429}"), () -> raw("{}"), () -> raw("0"))));
            }
            if (r.nextInt(20) == 0) {
                members.add(() -> member("timings", () -> raw("{\"cache_n\":0,\"prompt_n\":27,\"prompt_ms\":18.696,"
                        + "\"predicted_n\":16,\"predicted_ms\":13.671}")));
            }
            if (r.nextInt(6) == 0) {
                members.add(() -> member(r.nextBoolean() ? "x" : "é", this::anyValue));
            }
            if (r.nextInt(20) == 0 && !members.isEmpty()) {
                members.add(members.get(r.nextInt(members.size()))); // a repeated member
            }
            Collections.shuffle(members, r);
            object(members);
            if (r.nextInt(50) == 0) {
                raw(r.nextBoolean() ? "x" : " {}");
            }
            return out.toByteArray();
        }

        private void choices() {
            int n = r.nextInt(12) == 0 ? 0 : 1 + (r.nextInt(6) == 0 ? r.nextInt(3) : 0);
            if (r.nextInt(30) == 0) {
                raw(r.nextBoolean() ? "null" : "{}");
                return;
            }
            raw("[");
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    sep(",");
                }
                List<Runnable> members = new ArrayList<>();
                members.add(() -> member("index", () -> raw(Integer.toString(r.nextInt(3)))));
                if (r.nextInt(8) > 0) {
                    members.add(() -> member("delta", this::delta));
                }
                if (r.nextBoolean()) {
                    members.add(() -> member("finish_reason", () -> pick(() -> raw("null"), () -> raw("\"stop\""),
                            () -> raw("\"length\""), () -> string(3), () -> raw("\"\\u0073top\""), () -> raw("1"))));
                }
                if (r.nextInt(4) == 0) {
                    members.add(() -> member("logprobs", () -> pick(() -> raw("null"), this::anyValue)));
                }
                if (r.nextInt(6) == 0) {
                    members.add(() -> member("text", () -> pick(() -> string(3), () -> raw("\"\""), () -> raw("null"))));
                }
                Collections.shuffle(members, r);
                object(members);
            }
            raw("]");
        }

        private void delta() {
            List<Runnable> members = new ArrayList<>();
            if (r.nextInt(4) == 0) {
                members.add(() -> member("role", () -> pick(() -> raw("\"assistant\""), () -> raw("null"))));
            }
            if (r.nextInt(5) > 0) {
                members.add(() -> member("content", () -> pick(() -> string(6), () -> string(6), () -> raw("\"\""),
                        () -> raw("null"), () -> raw("1"), () -> raw("[]"))));
            }
            for (String reasoning : List.of("reasoning_content", "reasoning")) {
                if (r.nextInt(3) > 0) {
                    continue;
                }
                members.add(() -> member(reasoning, () -> pick(
                        () -> string(4), () -> raw("\"\""), () -> raw("null"), () -> raw("true"), () -> raw("false"),
                        () -> raw("0"), () -> raw("{}"), () -> raw("[1]"))));
            }
            if (r.nextInt(8) == 0) {
                members.add(() -> member("tool_calls", () -> pick(() -> raw("[]"), () -> raw("null"),
                        () -> raw("[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                                + "\"arguments\":\"{\\\"a\\\":\"}}]"))));
            }
            if (r.nextInt(30) == 0) {
                members.add(() -> member("function_call", () -> raw("{\"name\":\"f\",\"arguments\":\"{}\"}")));
            }
            if (r.nextInt(20) == 0) {
                members.add(members.isEmpty() ? () -> member("y", this::anyValue) : members.get(0));
            }
            Collections.shuffle(members, r);
            object(members);
        }

        private void usage() {
            if (r.nextInt(3) == 0) {
                raw(r.nextBoolean() ? "null" : "{}");
                return;
            }
            List<Runnable> members = new ArrayList<>();
            members.add(() -> member("prompt_tokens", this::number));
            members.add(() -> member("completion_tokens", this::number));
            members.add(() -> member("total_tokens", this::number));
            if (r.nextBoolean()) {
                members.add(() -> member("prompt_tokens_details", () -> pick(() -> raw("null"),
                        () -> raw("{\"cached_tokens\":" + NUMBERS[r.nextInt(NUMBERS.length)] + "}"), () -> raw("{}"))));
            }
            Collections.shuffle(members, r);
            object(members.subList(0, 1 + r.nextInt(members.size())));
        }

        private void anyValue() {
            pick(() -> string(3), this::number, () -> raw("true"), () -> raw("null"),
                    () -> raw("{\"a\":[1,{\"b\":null}],\"c\":\"d\"}"), () -> raw("[]"), () -> raw("[[[[\"x\"]]]]"));
        }

        private void object(List<Runnable> members) {
            raw("{");
            for (int i = 0; i < members.size(); i++) {
                if (i > 0) {
                    sep(",");
                }
                members.get(i).run();
            }
            raw("}");
        }

        private void member(String name, Runnable value) {
            ws();
            raw("\"" + name + "\"");
            sep(":");
            value.run();
            ws();
        }

        private void string(int pieces) {
            raw("\"");
            int n = r.nextInt(pieces + 1);
            for (int i = 0; i < n; i++) {
                int k = r.nextInt(100);
                if (k < 55) {
                    raw(PIECES[r.nextInt(3)]);
                } else if (k < 97) {
                    raw(PIECES[r.nextInt(PIECES.length)]);
                } else if (k < 98) {
                    out.write(r.nextInt(0x20)); // a raw control character
                } else {
                    out.write(0x80 + r.nextInt(0x80)); // a byte that starts no UTF-8 character here
                }
            }
            raw("\"");
        }

        private void number() {
            raw(r.nextInt(3) == 0 ? NUMBERS[r.nextInt(NUMBERS.length)] : Integer.toString(r.nextInt(100_000)));
        }

        private void sep(String s) {
            ws();
            raw(s);
            ws();
        }

        private void ws() {
            if (r.nextInt(8) == 0) {
                String[] spaces = {" ", "\t", "\n", "\r", "  ", "\u000b", "\f"};
                raw(spaces[r.nextInt(r.nextInt(40) == 0 ? spaces.length : 5)]);
            }
        }

        private void pick(Runnable... choices) {
            choices[r.nextInt(choices.length)].run();
        }

        private void raw(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
    }
}
