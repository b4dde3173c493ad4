package io.capstream.loadgen.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.internal.ContextInternal;
import java.nio.channels.ClosedChannelException;

/**
 * The last handler of a {@link NettyStreamTransport} connection: it passes the decoded response of the request bound
 * to it ({@link #bind}) to that request's {@link StreamExchange}, inside the request's Vert.x context: the head, each
 * body slice's bytes stamped with the time of the socket read they came in ({@link ReadStamp}, in front of the HTTP
 * codec: one {@link System#nanoTime()} per read, so a chunk of the turn's later read is not stamped with the first
 * read's time), and the end or failure. At the end of a response the connection
 * goes back to the transport's idle list when keep-alive is on and the server keeps it open, else it is closed.
 * Informational (1xx) heads are skipped.
 *
 * <p>A 2xx response with a chunked body (a stream) is read without the HTTP decoder: after its head the decoder is
 * removed from the pipeline (it hands on the bytes of the read that it has not decoded) and each socket read's
 * bytes go through {@link ChunkedBody} once, with one Vert.x context dispatch per read, instead of an
 * {@code HttpContent} per chunk through the pipeline. When the connection is kept for the next request, a new
 * decoder is put back at the end of the body. Other bodies (errors, a length, until the close) stay with the
 * decoder. Used only on its channel's event loop.
 */
final class NettyStreamHandler extends ChannelInboundHandlerAdapter {
    private final NettyStreamTransport transport;
    private final ReadStamp stamp;
    private ChannelHandlerContext channel;
    private StreamExchange ex; // the request the connection serves, null between requests
    private ContextInternal context;
    private boolean headSeen;
    private boolean reusable;
    private boolean informational;
    private Throwable cause;
    private ChunkedBody body; // a stream's chunked body read from raw bytes (the decoder removed), or null
    private boolean removeDecoder; // the head just read starts such a body: remove the decoder after it
    private long readAt; // the stamp of the raw read being fed to body
    private final ChunkedBody.Sink sink = (b, off, len) -> {
        if (ex != null) {
            ex.onBytes(readAt, b, off, len);
        }
    };

    /**
     * @param transport the connection's transport (its idle list)
     * @param stamp     the time of the socket read being decoded (a handler in front of the HTTP codec)
     */
    NettyStreamHandler(NettyStreamTransport transport, ReadStamp stamp) {
        this.transport = transport;
        this.stamp = stamp;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx;
    }

    /**
     * Binds the connection to a request.
     *
     * @param exchange the request
     * @param ctx      its Vert.x context
     * @return the request's link to the connection: closing it closes the connection while it serves the request
     */
    StreamExchange.Link bind(StreamExchange exchange, ContextInternal ctx) {
        ex = exchange;
        context = ctx;
        headSeen = false;
        informational = false;
        reusable = false;
        cause = null;
        body = null;
        return () -> {
            if (ex == exchange) {
                closeAfterIo(channel);
            }
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof ByteBuf raw) {
                if (ex != null && body != null) {
                    readBody(ctx, raw);
                }
                return;
            }
            if (ex == null || !(msg instanceof HttpObject obj)) {
                return;
            }
            if (obj.decoderResult().isFailure()) {
                failed(obj.decoderResult().cause());
                ctx.close();
                return;
            }
            ContextInternal prev = context.beginDispatch();
            try {
                read(ctx, obj);
            } finally {
                context.endDispatch(prev);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (removeDecoder) {
            removeDecoder = false;
            // the decoder hands on, at once, the bytes of this read after the head (to readBody)
            ctx.pipeline().remove(NettyStreamTransport.DECODER);
        }
    }

    /** One socket read of a chunked stream body, after the head: its chunks' data to the exchange. */
    private void readBody(ChannelHandlerContext ctx, ByteBuf buf) {
        int n = buf.readableBytes();
        if (n == 0) {
            return;
        }
        readAt = stamp.at();
        ChunkedBody.MalformedChunkException bad = null;
        ContextInternal prev = context.beginDispatch();
        try {
            byte[] a;
            int off;
            if (buf.hasArray()) {
                a = buf.array();
                off = buf.arrayOffset() + buf.readerIndex();
            } else {
                a = ex.scratch(n);
                off = 0;
                buf.getBytes(buf.readerIndex(), a, 0, n);
            }
            int used = body.feed(a, off, n);
            if (body.ended()) {
                if (used < n) {
                    reusable = false; // bytes after the body that no request asked for
                }
                bodyEnded(ctx);
            }
        } catch (ChunkedBody.MalformedChunkException e) {
            bad = e;
        } finally {
            context.endDispatch(prev);
        }
        if (bad != null) {
            failed(bad);
            ctx.close();
        }
    }

    private void read(ChannelHandlerContext ctx, HttpObject obj) {
        if (obj instanceof HttpResponse r) {
            int status = r.status().code();
            if (status / 100 == 1 && status != 101) {
                informational = true;
                return;
            }
            headSeen = true;
            reusable = transport.keepAlive() && HttpUtil.isKeepAlive(r);
            ex.onHead(stamp.at(), status, r.status().reasonPhrase(), r.headers().get(HttpHeaderNames.CONTENT_TYPE),
                    r.headers().get(TraceHeaders.REQUEST_ID), r.headers().getAll("Server-Timing"));
            if (status / 100 == 2 && status != 204 && !(obj instanceof HttpContent)
                    && HttpUtil.isTransferEncodingChunked(r) && ctx.pipeline().get(NettyStreamTransport.DECODER) != null) {
                body = new ChunkedBody(sink);
                removeDecoder = true;
                return;
            }
        }
        if (obj instanceof HttpContent c) {
            if (informational) {
                informational = !(obj instanceof LastHttpContent);
                return;
            }
            ByteBuf b = c.content();
            int n = b.readableBytes();
            if (n > 0) {
                long readAt = stamp.at();
                if (b.hasArray()) {
                    ex.onBytes(readAt, b.array(), b.arrayOffset() + b.readerIndex(), n);
                } else {
                    byte[] s = ex.scratch(n);
                    b.getBytes(b.readerIndex(), s, 0, n);
                    ex.onBytes(readAt, s, 0, n);
                }
            }
            if (obj instanceof LastHttpContent) {
                bodyEnded(ctx);
            }
        }
    }

    /**
     * The response's body ended: the connection goes back to the idle list (with a new HTTP decoder when the body
     * was read without it) or is closed, then the exchange hears of the end.
     */
    private void bodyEnded(ChannelHandlerContext ctx) {
        StreamExchange e = ex;
        ex = null;
        boolean raw = body != null;
        body = null;
        if (reusable && ctx.channel().isActive()) {
            if (raw) {
                ctx.pipeline().addBefore(NettyStreamTransport.STREAM, NettyStreamTransport.DECODER,
                        new HttpResponseDecoder());
            }
            transport.release(ctx.channel());
        } else {
            closeAfterIo(ctx);
        }
        e.onBodyEnd();
    }

    /**
     * Closes a connection whose request ended (or is given up) in a task of its event loop, after the loop's I/O
     * step: the close (a syscall, the channel's inactive event) is not paid inside the read, before the other
     * connections' reads and connect completions of the same step. Nothing more is read for the request meanwhile
     * (it was unbound or finished).
     */
    private static void closeAfterIo(ChannelHandlerContext ctx) {
        ctx.channel().eventLoop().execute(ctx::close);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
        if (cause == null) {
            cause = t;
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transport.closed(ctx.channel());
        if (ex != null) { // no exception made for a connection that serves no request (the server's FIN after the end)
            failed(cause != null ? cause : new ClosedChannelException());
        }
        ctx.fireChannelInactive();
    }

    /**
     * The connection failed or closed while it served a request: the request fails (before its response head as a
     * disconnect, in the body as an incomplete read), and the connection serves no further request.
     *
     * @param t the failure
     */
    void failed(Throwable t) {
        StreamExchange e = ex;
        if (e == null) {
            return;
        }
        ex = null;
        ContextInternal prev = context.beginDispatch();
        try {
            if (headSeen) {
                e.onBodyError(t);
            } else {
                e.onHeadError(t);
            }
        } finally {
            context.endDispatch(prev);
        }
    }
}
