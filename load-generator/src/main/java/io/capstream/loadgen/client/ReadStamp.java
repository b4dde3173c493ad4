package io.capstream.loadgen.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.function.LongSupplier;

/**
 * The arrival time of each read from a {@link NettyStreamTransport} connection's socket: the first inbound handler
 * (before TLS and the HTTP codec) reads the clock once per raw buffer the channel reads, and everything decoded from
 * that buffer (the response head, each body slice) is stamped with it ({@link NettyStreamHandler}). Netty reads a
 * channel up to 16 times in one event-loop turn before its read-complete; each read keeps its own stamp. One clock
 * read per socket read, none per decoded object. Used only on its channel's event loop.
 */
final class ReadStamp extends ChannelInboundHandlerAdapter {
    private final LongSupplier clock;
    private long at = -1;

    /** @param clock the stamp, {@link System#nanoTime()} in a run (injected by tests) */
    ReadStamp(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        at = clock.getAsLong();
        ctx.fireChannelRead(msg);
    }

    /** @return when the read being decoded arrived, on the clock's scale; -1 before the first read */
    long at() {
        return at;
    }
}
