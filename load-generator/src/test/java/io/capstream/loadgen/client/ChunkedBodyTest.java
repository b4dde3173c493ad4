package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkedBody} reads the chunked coding of real stream bodies (the oracle's chunks as the JDK's HTTP server
 * frames them, llama-server's usage chunk, an extension, trailers, bare LF line ends) cut at every byte offset into
 * two reads, and fed one byte at a time: the data handed on is the body's exactly, the end is found where it is, and
 * bytes after it are left. Malformed coding is a {@link ChunkedBody.MalformedChunkException}.
 */
class ChunkedBodyTest {
    static final String ROLE = "data: {\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n";
    static final String TOKEN = "data: {\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\" tok\"}}]}\n\n";
    static final String USAGE = "data: {\"id\":\"chatcmpl-7\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":"
            + "{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}\n\ndata: [DONE]\n\n";
    static final String UNICODE = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"é中😀\"}}]}\n\n";

    /** @return the chunk of {@code s} as the JDK's HTTP server and llama-server frame it: hex size, CRLF, data, CRLF */
    static String chunk(String s) {
        return Integer.toHexString(s.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + s + "\r\n";
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The oracle's body: the role chunk, tokens, the usage chunk with [DONE], the last chunk. */
    static final String ORACLE = chunk(ROLE) + chunk(TOKEN) + chunk(TOKEN) + chunk(USAGE) + "0\r\n\r\n";
    static final String DATA = ROLE + TOKEN + TOKEN + USAGE;

    /** Collects the data handed on. */
    static final class Collect implements ChunkedBody.Sink {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override
        public void data(byte[] b, int off, int len) {
            assertThat(len).as("a data slice is never empty").isPositive();
            out.write(b, off, len);
        }

        String text() {
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** Feeds {@code body} in two reads cut at every offset; each time the data and the end must be the whole body's. */
    static void everySplit(String body, String data) throws Exception {
        byte[] b = bytes(body);
        for (int cut = 0; cut <= b.length; cut++) {
            Collect c = new Collect();
            ChunkedBody cb = new ChunkedBody(c);
            // each read in its own array, at an offset, as a pooled buffer's backing array would be
            byte[] first = new byte[cut + 3];
            System.arraycopy(b, 0, first, 3, cut);
            byte[] second = new byte[b.length - cut + 5];
            System.arraycopy(b, cut, second, 5, b.length - cut);
            int used1 = cb.feed(first, 3, cut);
            assertThat(cb.ended()).as("ended after the first read, cut at %d of %d", cut, b.length)
                    .isEqualTo(cut == b.length);
            int used2 = cb.feed(second, 5, b.length - cut);
            assertThat(used1 + used2).as("bytes read, cut at %d", cut).isEqualTo(b.length);
            assertThat(cb.ended()).as("ended, cut at %d", cut).isTrue();
            assertThat(c.text()).as("data, cut at %d", cut).isEqualTo(data);
        }
        Collect c = new Collect();
        ChunkedBody cb = new ChunkedBody(c);
        for (int i = 0; i < b.length; i++) {
            assertThat(cb.ended()).as("ended before byte %d", i).isFalse();
            assertThat(cb.feed(b, i, 1)).as("byte %d read", i).isEqualTo(1);
        }
        assertThat(cb.ended()).as("ended, one byte per read").isTrue();
        assertThat(c.text()).as("data, one byte per read").isEqualTo(data);
    }

    @Test
    void theOraclesBodyAtEverySplitOffset() throws Exception {
        everySplit(ORACLE, DATA);
    }

    @Test
    void multiByteCharactersExtensionsTrailersAndBareLineFeedsAtEverySplitOffset() throws Exception {
        String body = chunk(ROLE) + Integer.toHexString(bytes(UNICODE).length) + ";name=\"v\"\r\n" + UNICODE + "\r\n"
                + Integer.toHexString(bytes(TOKEN).length).toUpperCase() + " \n" + TOKEN + "\n"
                + "0\r\nServer-Timing: total;dur=12\r\nX-Other: 1\r\n\r\n";
        everySplit(body, ROLE + UNICODE + TOKEN);
    }

    @Test
    void oneChunkHoldingSeveralEventsAndLeadingZeroes() throws Exception {
        String data = ROLE + TOKEN + USAGE;
        everySplit("000" + Integer.toHexString(bytes(data).length) + "\r\n" + data + "\r\n000\r\n\r\n", data);
    }

    @Test
    void bytesAfterTheBodyAreNotRead() throws Exception {
        byte[] b = bytes(ORACLE + "HTTP/1.1 200 OK\r\n");
        Collect c = new Collect();
        ChunkedBody cb = new ChunkedBody(c);
        assertThat(cb.feed(b, 0, b.length)).as("bytes read: the body's only").isEqualTo(bytes(ORACLE).length);
        assertThat(cb.ended()).as("ended").isTrue();
        assertThat(c.text()).as("data").isEqualTo(DATA);
    }

    @Test
    void malformedCodingIsAnError() {
        for (String bad : new String[] {"zz\r\n", "\r\n", "5\r\nhelloX", "5\r\nhello\rX",
                "1234567890abcdef0\r\n", "5" + " ".repeat(ChunkedBody.MAX_SIZE_LINE) + "\r\n",
                "0\r\nX: " + "y".repeat(ChunkedBody.MAX_TRAILERS) + "\r\n\r\n", "0\r\n\rX"}) {
            ChunkedBody cb = new ChunkedBody(new Collect());
            byte[] b = bytes(bad);
            assertThatThrownBy(() -> cb.feed(b, 0, b.length)).as("body %s", bad.length() > 40 ? bad.substring(0, 40)
                    : bad).isInstanceOf(ChunkedBody.MalformedChunkException.class);
        }
    }
}
