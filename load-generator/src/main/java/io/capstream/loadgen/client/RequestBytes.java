package io.capstream.loadgen.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.DefaultHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.AsciiString;
import io.netty.util.CharsetUtil;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The bytes of one {@link NettyStreamTransport} request, head and body, written into one buffer in one pass (issue 33
 * item 4: the request's {@code DefaultFullHttpRequest}, its header map and Netty's {@code HttpRequestEncoder} were
 * ~4% of the event loop at 256 streams). The bytes are those the encoder wrote for the request the transport built
 * before: {@code POST <target> HTTP/1.1}, {@code host: <host>}, the request's headers in their order, {@code
 * content-length: <body bytes>} last (a header of that name among the request's is dropped, as the header map's
 * {@code set} did), the blank line, the body (as one chunk and the last chunk when a {@code -H} header says
 * {@code Transfer-Encoding: chunked}, as the encoder did). Names and values are checked by the same validators as Netty's default
 * header map ({@link DefaultHttpHeadersFactory#headersFactory()}): an invalid one throws the same
 * {@link IllegalArgumentException}, before anything is allocated. Characters are written as Netty's encoder writes
 * them (the target as UTF-8, headers as ISO-8859-1 with {@code ?} above U+00FF). Immutable.
 */
final class RequestBytes {
    private static final byte[] COLON_SPACE = {':', ' '};
    private static final byte[] CRLF = {'\r', '\n'};
    private static final AsciiString HOST = HttpHeaderNames.HOST;
    private static final AsciiString CONTENT_LENGTH = HttpHeaderNames.CONTENT_LENGTH;
    private static final AsciiString TRANSFER_ENCODING = HttpHeaderNames.TRANSFER_ENCODING;
    private static final AsciiString CHUNKED = io.netty.handler.codec.http.HttpHeaderValues.CHUNKED;
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
    private static final byte[] CHUNK_END_AND_LAST = {'\r', '\n', '0', '\r', '\n', '\r', '\n'};

    private final byte[] requestLine;
    private final String hostHeader;
    private final DefaultHeaders.NameValidator<CharSequence> names;
    private final DefaultHeaders.ValueValidator<CharSequence> values;

    /**
     * @param target     the request target (path and query), starting with {@code /}
     * @param hostHeader the {@code Host} header's value
     */
    RequestBytes(String target, String hostHeader) {
        this.requestLine = ("POST " + target + " HTTP/1.1\r\n").getBytes(StandardCharsets.UTF_8);
        this.hostHeader = hostHeader;
        DefaultHttpHeadersFactory f = DefaultHttpHeadersFactory.headersFactory();
        this.names = f.getNameValidator();
        this.values = f.getValueValidator();
    }

    /**
     * @param alloc   where the buffer comes from
     * @param headers the request's headers, in order (after {@code host})
     * @param body    the body
     * @return a new buffer with the request's bytes (the caller owns it)
     * @throws IllegalArgumentException when a header name or value is not allowed
     */
    ByteBuf encode(ByteBufAllocator alloc, Iterable<Map.Entry<String, String>> headers, Buffer body) {
        value(HOST, hostHeader);
        int size = requestLine.length + HOST.length() + hostHeader.length() + 4;
        for (Map.Entry<String, String> e : headers) {
            names.validateName(e.getKey());
            value(e.getKey(), e.getValue());
            size += e.getKey().length() + e.getValue().length() + 4;
        }
        int bodyLen = body.length();
        String length = Integer.toString(bodyLen);
        size += CONTENT_LENGTH.length() + length.length() + 4 + 2 + bodyLen + 16;
        ByteBuf out = alloc.directBuffer(size);
        out.writeBytes(requestLine);
        header(out, HOST, hostHeader);
        for (Map.Entry<String, String> e : headers) {
            if (!CONTENT_LENGTH.contentEqualsIgnoreCase(e.getKey())) {
                header(out, e.getKey(), e.getValue());
            }
        }
        header(out, CONTENT_LENGTH, length);
        out.writeBytes(CRLF);
        boolean chunked = chunked(headers);
        if (chunked && bodyLen > 0) {
            out.writeCharSequence(Integer.toHexString(bodyLen), CharsetUtil.US_ASCII);
            out.writeBytes(CRLF);
        }
        out.writeBytes(body.getBytes()); // Vert.x's public API (its ByteBuf is io.vertx.core.internal: LayerRulesTest)
        if (chunked) {
            out.writeBytes(bodyLen > 0 ? CHUNK_END_AND_LAST : LAST_CHUNK);
        }
        return out;
    }

    /**
     * @return whether a {@code Transfer-Encoding} header names {@code chunked} (Netty's
     *         {@code HttpUtil.isTransferEncodingChunked}: any comma-separated value, case-insensitive); the encoder
     *         then sent the body as one chunk and the last chunk
     */
    private static boolean chunked(Iterable<Map.Entry<String, String>> headers) {
        for (Map.Entry<String, String> e : headers) {
            if (TRANSFER_ENCODING.contentEqualsIgnoreCase(e.getKey())) {
                for (String v : e.getValue().split(",")) {
                    if (CHUNKED.contentEqualsIgnoreCase(v.trim())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Netty's header map's check of a value ({@code DefaultHeaders.validateValue}: the same message and cause). */
    private void value(CharSequence name, String value) {
        try {
            values.validate(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Validation failed for header '" + name + "'", e);
        }
    }

    private static void header(ByteBuf out, CharSequence name, CharSequence value) {
        out.writeCharSequence(name, CharsetUtil.US_ASCII);
        out.writeBytes(COLON_SPACE);
        out.writeCharSequence(value, CharsetUtil.US_ASCII);
        out.writeBytes(CRLF);
    }
}
