package io.capstream.loadgen.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.transport.Transport;
import java.net.SocketAddress;
import java.util.concurrent.ThreadFactory;

/**
 * The Vert.x transport (NIO, or the native epoll one when preferred and loadable) with a {@link ConnectStamp} on
 * every client channel, so that {@link StreamingClient} can split a new connection's time into DNS lookup, TCP
 * connect and TLS handshake (issue 30). Everything else is the wrapped transport's. Costs three nanoTime reads and a
 * handler per client connection; nothing per request.
 */
public final class TimedTransport implements Transport {
    private final Transport delegate;
    private final Spi spi;

    /** @param delegate the transport to wrap; not null */
    public TimedTransport(Transport delegate) {
        this.delegate = delegate;
        this.spi = new Spi(delegate.implementation());
    }

    /**
     * Builds a Vert.x instance whose client connections are stamped.
     *
     * @param options the options; {@link VertxOptions#getPreferNativeTransport()} picks the native transport when it
     *                is available, as {@link Vertx#vertx(VertxOptions)} would
     * @return the instance
     */
    public static Vertx vertx(VertxOptions options) {
        Transport chosen = Transport.NIO;
        if (options.getPreferNativeTransport()) {
            Transport nat = Transport.nativeTransport();
            if (nat != null && nat.available()) {
                chosen = nat;
            }
        }
        return Vertx.builder().with(options).withTransport(new TimedTransport(chosen)).build();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public boolean available() {
        return delegate.available();
    }

    @Override
    public Throwable unavailabilityCause() {
        return delegate.unavailabilityCause();
    }

    @Override
    public io.vertx.core.spi.transport.Transport implementation() {
        return spi;
    }

    /** The wrapped transport's implementation, with stamped client channels. */
    private static final class Spi implements io.vertx.core.spi.transport.Transport {
        private final io.vertx.core.spi.transport.Transport d;

        Spi(io.vertx.core.spi.transport.Transport d) {
            this.d = d;
        }

        @Override
        public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
            ChannelFactory<? extends Channel> f = d.channelFactory(domainSocket);
            return () -> ConnectStamp.install(f.newChannel());
        }

        @Override
        public boolean supportsDomainSockets() {
            return d.supportsDomainSockets();
        }

        @Override
        public boolean supportFileRegion() {
            return d.supportFileRegion();
        }

        @Override
        public boolean isAvailable() {
            return d.isAvailable();
        }

        @Override
        public Throwable unavailabilityCause() {
            return d.unavailabilityCause();
        }

        @Override
        public SocketAddress convert(io.vertx.core.net.SocketAddress address) {
            return d.convert(address);
        }

        @Override
        public io.vertx.core.net.SocketAddress convert(SocketAddress address) {
            return d.convert(address);
        }

        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return d.ioHandlerFactory();
        }

        @Override
        public EventLoopGroup eventLoopGroup(int type, int nThreads, ThreadFactory threadFactory, int ioRatio) {
            return d.eventLoopGroup(type, nThreads, threadFactory, ioRatio);
        }

        @Override
        public DatagramChannel datagramChannel() {
            return d.datagramChannel();
        }

        @Override
        public DatagramChannel datagramChannel(InternetProtocolFamily family) {
            return d.datagramChannel(family);
        }

        @Override
        public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
            return d.serverChannelFactory(domainSocket);
        }

        @Override
        public void configure(DatagramChannel channel, DatagramSocketOptions options) {
            d.configure(channel, options);
        }

        @Override
        public void configure(ClientOptionsBase options, int connectTimeout, boolean domainSocket,
                              io.netty.bootstrap.Bootstrap bootstrap) {
            d.configure(options, connectTimeout, domainSocket, bootstrap);
        }

        @Override
        public void configure(NetServerOptions options, boolean domainSocket, io.netty.bootstrap.ServerBootstrap bootstrap) {
            d.configure(options, domainSocket, bootstrap);
        }
    }
}
