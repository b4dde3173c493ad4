package io.capstream.loadgen.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;
import io.vertx.core.http.HttpConnection;
import java.net.SocketAddress;

/**
 * When one client TCP connection was started, resolved and connected (issue 30's HTTP phases): a Netty handler that
 * {@link TimedTransport} puts first in the pipeline of every client channel it creates. It sees the channel created
 * (before the name is resolved), the outbound {@code connect} (the address resolved: DNS done) and the connect's
 * success (TCP handshake done); the TLS handshake follows until the connection is handed to the HTTP client. Three
 * {@link System#nanoTime()} reads per connection, none per request. Vert.x removes the handler from the pipeline once
 * the connection is up; the stamp stays in the channel's attribute {@link #KEY}.
 */
public final class ConnectStamp extends ChannelOutboundHandlerAdapter {
    /** The channel attribute holding a connection's stamp. */
    public static final AttributeKey<ConnectStamp> KEY = AttributeKey.valueOf("capstream.connect-stamp");

    private final long createdAt;
    private volatile long connectAt = -1;
    private volatile long connectedAt = -1;

    /** @param createdAt when the channel was created, {@link System#nanoTime()} */
    ConnectStamp(long createdAt) {
        this(createdAt, -1, -1);
    }

    /** A stamp with given instants (tests). */
    ConnectStamp(long createdAt, long connectAt, long connectedAt) {
        this.createdAt = createdAt;
        this.connectAt = connectAt;
        this.connectedAt = connectedAt;
    }

    /**
     * Stamps a new channel: installs the handler and the attribute.
     *
     * @param ch a client channel just created, not yet registered or connected
     * @return the channel
     */
    static <C extends Channel> C install(C ch) {
        ConnectStamp stamp = new ConnectStamp(System.nanoTime());
        ch.attr(KEY).set(stamp);
        ch.pipeline().addFirst("capstream-connect-stamp", stamp);
        return ch;
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise)
            throws Exception {
        connectAt = System.nanoTime();
        promise.addListener(f -> {
            if (f.isSuccess()) {
                connectedAt = System.nanoTime();
            }
        });
        ctx.connect(remote, local, promise);
    }

    /** @return when the channel was created (the connection attempt began), {@link System#nanoTime()} */
    public long createdAt() {
        return createdAt;
    }

    /** @return when the resolved address was connected to (DNS done), {@link System#nanoTime()}, or -1 */
    public long connectAt() {
        return connectAt;
    }

    /** @return when the TCP connection was established, {@link System#nanoTime()}, or -1 */
    public long connectedAt() {
        return connectedAt;
    }

    /**
     * The stamp of an HTTP connection's channel. Reads the channel through Vert.x's connection implementation
     * ({@code io.vertx.core.net.impl.ConnectionBase}, the only way to it in Vert.x 5.0).
     *
     * @param conn an HTTP client connection, or null
     * @return its stamp, or null when its channel was not created by {@link TimedTransport} (a Vert.x instance
     *         built without it) or the connection is not a plain Vert.x one
     */
    public static ConnectStamp of(HttpConnection conn) {
        if (conn instanceof io.vertx.core.net.impl.ConnectionBase base) {
            return base.channel().attr(KEY).get();
        }
        return null;
    }
}
