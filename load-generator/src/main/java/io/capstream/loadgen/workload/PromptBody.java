package io.capstream.loadgen.workload;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A synthetic prompt's request body as the bytes around the prompt (issue 33 item 4: the body's JSON generator was
 * ~1.1% of the event loop at 256 streams, before t0): the builder's body for one {@code max_tokens} is its bytes
 * before the prompt's string value ({@code head}), the prompt's characters JSON-escaped, then the bytes after it
 * ({@code tail}). Jackson writes a string's characters one by one, each escaped on its own, so the body of any prompt
 * is {@code head + escape(prompt) + tail}. Only the escapes of the prompts {@link PromptBuilder} makes are written
 * here: printable ASCII as it is, {@code "} and {@code \} after a backslash, {@code \n}, {@code \t} and
 * {@code \r} in their short forms (Jackson's defaults); a prompt with any other character returns null and is written
 * by the generator. Made by {@link #of}, which checks this against the generator itself: a probe with every character
 * written here must come out byte for byte as the generator writes it, else there is no template. Immutable.
 */
final class PromptBody {
    /** Stands for the prompt when the template is cut out of a body; never in a real body's other members. */
    private static final String SENTINEL = "capstream-prompt-body-4d0c9f";
    /** Every character {@link #write} writes, for the check against the generator. */
    private static final String PROBE;

    static {
        StringBuilder sb = new StringBuilder("\n\t\r");
        for (char c = 0x20; c < 0x7f; c++) {
            sb.append(c);
        }
        PROBE = sb.append("\r\n\"\\").toString();
    }

    private final byte[] head;
    private final byte[] tail;

    private PromptBody(byte[] head, byte[] tail) {
        this.head = head;
        this.tail = tail;
    }

    /**
     * @param writer the body of a prompt as the generator writes it (one {@code max_tokens}, no images)
     * @return the template, or null when the body does not hold the prompt as one string value exactly once (e.g.
     *         an {@code --extra-body} member replaces it) or when the generator escapes a character otherwise
     */
    static PromptBody of(Function<String, byte[]> writer) {
        byte[] probe = writer.apply(SENTINEL);
        byte[] s = SENTINEL.getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(probe, s, 0);
        if (at < 0 || indexOf(probe, s, at + 1) >= 0) {
            return null;
        }
        PromptBody t = new PromptBody(Arrays.copyOfRange(probe, 0, at),
                Arrays.copyOfRange(probe, at + s.length, probe.length));
        Buffer written = t.write(PROBE);
        return written != null && Arrays.equals(writer.apply(PROBE), written.getBytes()) ? t : null;
    }

    /**
     * @param prompt the prompt; not null
     * @return the UTF-8 JSON body, or null when the prompt has a character not written here (then the generator
     *         writes it)
     */
    Buffer write(String prompt) {
        // the prompt's Latin-1 bytes in one intrinsic copy; a character above U+00FF comes out as '?', checked below
        byte[] raw = prompt.getBytes(StandardCharsets.ISO_8859_1);
        int n = raw.length;
        if (n != prompt.length()) { // a surrogate pair became one '?'
            return null;
        }
        byte[] out = new byte[head.length + 2 * n + tail.length]; // an escape here is at most two bytes
        System.arraycopy(head, 0, out, 0, head.length);
        int p = head.length;
        for (int i = 0; i < n; i++) {
            byte c = raw[i];
            if (c >= 0x20 && c < 0x7f) {
                if (c == '"' || c == '\\') {
                    out[p++] = '\\';
                } else if (c == '?' && prompt.charAt(i) != '?') {
                    return null;
                }
                out[p++] = c;
            } else if (c == '\n') {
                out[p++] = '\\';
                out[p++] = 'n';
            } else if (c == '\t') {
                out[p++] = '\\';
                out[p++] = 't';
            } else if (c == '\r') {
                out[p++] = '\\';
                out[p++] = 'r';
            } else {
                return null;
            }
        }
        System.arraycopy(tail, 0, out, p, tail.length);
        p += tail.length;
        return Buffer.buffer(p).appendBytes(out, 0, p); // one copy, as Buffer.buffer(byte[]) made of the generator's
    }

    private static int indexOf(byte[] in, byte[] what, int from) {
        outer:
        for (int i = from; i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
