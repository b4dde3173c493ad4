package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ClientTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * The streamed requests on Netty's HTTP/1.1 codec directly ({@link HttpClientKind#NETTY}, issue 33 item 4): each
 * connection is a Netty channel on the Vert.x event loop of the request's context (so Vert.x's timers, contexts and
 * the rest of the generator are unchanged), with {@link ConnectStamp} (Vert.x's transport's channel factory, see
 * {@link TimedTransport}), {@link ReadStamp} (the time of each socket read), {@link SslHandler} for https, Netty's HTTP/1.1
 * response decoder (the request is written as its bytes, {@link RequestBytes}), and a {@link NettyStreamHandler}
 * that hands each read's bytes to the exchange with that read's stamp (a stream's chunked body without the decoder: {@link ChunkedBody}). No Vert.x {@code HttpClient}:
 * no per-chunk Vert.x pipeline or buffer copy, no per-connection Vert.x connection objects.
 *
 * <p>Connections: with keep-alive, a connection whose response ended and that the server keeps open goes back to
 * an idle list of its event loop and serves that loop's next request; without, each request opens its own and sends
 * {@code Connection: close} (the reference). The number of connections is not capped: a run never has more requests
 * in flight than its slots ({@link ClientConfig#maxConnections()} is above that). The connect timeout is the
 * {@code --timeout}; names are resolved by Vert.x's resolver. https trusts as {@link ClientTls} says ({@code
 * --insecure}: any certificate and host name; {@code --ca-cert}: that CA; else the JVM's trust store, host name
 * checked). Thread-safe; each connection is used only on its event loop.
 */
final class NettyStreamTransport implements StreamTransport {
    /** The name of a connection's HTTP response decoder in its pipeline. */
    static final String DECODER = "http-decoder";
    /** The name of a connection's stream handler in its pipeline (a new decoder goes before it). */
    static final String STREAM = "stream";
    private final VertxInternal vertx;
    private final String host;
    private final int port;
    private final String hostHeader;
    private final SslContext ssl; // null for http
    private final boolean verifyHost;
    private final int connectTimeoutMs;
    private final boolean keepAlive;
    private final RuntimeException unusable; // the URL cannot be connected to (then every send throws it)
    private final InetSocketAddress address; // resolved once for an IP address; unresolved (a name) otherwise
    private final Map<EventLoop, ArrayDeque<Channel>> idle = new ConcurrentHashMap<>();
    private final Map<EventLoop, Bootstrap> bootstraps = new ConcurrentHashMap<>(); // for a name to resolve
    private final ChannelFactory<? extends Channel> channels;
    private final RequestBytes requestBytes; // null when unusable
    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param vertx       Vert.x (its event loops, name resolver and transport's channel factory)
     * @param url         the absolute URL requested
     * @param tls         how an https endpoint's certificate is checked
     * @param timeoutMs   connect timeout, ms
     * @param keepAlive   reuse connections
     * @throws IllegalStateException when the {@code --ca-cert} file cannot be read
     */
    NettyStreamTransport(Vertx vertx, String url, ClientTls tls, long timeoutMs, boolean keepAlive) {
        this.vertx = (VertxInternal) vertx;
        this.connectTimeoutMs = (int) Math.min(Integer.MAX_VALUE, timeoutMs);
        this.keepAlive = keepAlive;
        String h = null;
        int p = -1;
        String t = null;
        InetSocketAddress a = null;
        boolean https = false;
        RuntimeException bad = null;
        try {
            URI u = URI.create(url);
            https = "https".equalsIgnoreCase(u.getScheme());
            h = u.getHost();
            if (h == null) {
                throw new IllegalArgumentException("no host in " + url);
            }
            if (h.startsWith("[") && h.endsWith("]")) {
                h = h.substring(1, h.length() - 1);
            }
            p = u.getPort() >= 0 ? u.getPort() : https ? 443 : 80;
            t = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
                    + (u.getRawQuery() != null ? "?" + u.getRawQuery() : "");
            a = address(h, p); // throws for a port out of range
        } catch (RuntimeException e) {
            bad = e;
        }
        this.unusable = bad;
        this.host = h;
        this.port = p;
        this.hostHeader = h == null ? null : (h.indexOf(':') >= 0 ? "[" + h + "]" : h)
                + (p == (https ? 443 : 80) ? "" : ":" + p);
        this.address = a;
        this.verifyHost = !tls.insecure();
        this.ssl = https ? sslContext(tls) : null;
        this.channels = this.vertx.transport().channelFactory(false);
        this.requestBytes = bad == null ? new RequestBytes(t, hostHeader) : null;
    }

    /** @return an IP address's socket address, resolved now (no lookup); a name's unresolved (resolved per connection) */
    private static InetSocketAddress address(String host, int port) {
        byte[] ip = NetUtil.createByteArrayFromIpAddressString(host);
        if (ip == null) {
            return InetSocketAddress.createUnresolved(host, port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(host, ip), port);
        } catch (UnknownHostException e) {
            return InetSocketAddress.createUnresolved(host, port);
        }
    }

    private static SslContext sslContext(ClientTls tls) {
        try {
            SslContextBuilder b = SslContextBuilder.forClient();
            if (tls.insecure()) {
                b.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (tls.caCert() != null) {
                b.trustManager(tls.caCert().toFile());
            }
            return b.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("--ca-cert " + tls.caCert() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void send(StreamExchange ex, RequestOptions ro, Buffer body) {
        if (unusable != null) {
            throw unusable;
        }
        if (closed) {
            throw new IllegalStateException("client closed");
        }
        ContextInternal ctx = ContextInternal.current();
        if (ctx == null || !ctx.isEventLoopContext()) {
            ctx = vertx.getOrCreateContext();
        }
        ByteBuf req = requestBytes.encode(PooledByteBufAllocator.DEFAULT, ro.getHeaders(), body);
        EventLoop loop = ctx.nettyEventLoop();
        ContextInternal c = ctx;
        if (loop.inEventLoop()) {
            start(ex, c, loop, req);
        } else {
            loop.execute(() -> c.dispatch(() -> start(ex, c, loop, req)));
        }
    }

    /** On the event loop: a kept-alive idle connection of this loop, or a new one. */
    private void start(StreamExchange ex, ContextInternal ctx, EventLoop loop, ByteBuf req) {
        if (ex.finished) { // timed out before it could start
            req.release();
            return;
        }
        Channel ch = idleOf(loop);
        if (ch != null) {
            handOver(ex, ctx, ch, null, req);
            return;
        }
        ChannelFuture f;
        try {
            f = address.isUnresolved() ? bootstraps.computeIfAbsent(loop, this::bootstrap).connect(address)
                    : connect(loop);
        } catch (RuntimeException e) { // the socket could not be created (Bootstrap's failed future, same cause)
            ctx.dispatch(() -> ex.fail(FailureMapper.map(e, FailureMapper.Phase.CONNECT, 0)));
            req.release();
            return;
        }
        Channel created = f.channel();
        open.add(created);
        created.closeFuture().addListener(x -> open.remove(created));
        f.addListener(cf -> {
            if (!cf.isSuccess()) {
                ctx.dispatch(() -> ex.fail(FailureMapper.map(cf.cause(), FailureMapper.Phase.CONNECT, 0)));
                req.release();
                return;
            }
            SslHandler tlsHandler = created.pipeline().get(SslHandler.class);
            if (tlsHandler == null) {
                ctx.dispatch(() -> handOver(ex, ctx, created, ready(created), req));
                return;
            }
            tlsHandler.handshakeFuture().addListener(hf -> {
                if (hf.isSuccess()) {
                    ctx.dispatch(() -> handOver(ex, ctx, created, ready(created), req));
                } else {
                    ctx.dispatch(() -> ex.fail(FailureMapper.map(hf.cause(), FailureMapper.Phase.CONNECT, 0)));
                    req.release();
                    created.close();
                }
            });
        });
        if (closed) {
            created.close();
        }
    }

    /**
     * A new connection to the resolved {@link #address}, as {@link Bootstrap#connect} makes it (the same channel
     * factory, options, pipeline, registration, connect, and close on a failed connect), without its per-connection
     * overhead: the options map copied into an array, a {@link ChannelInitializer} added and removed again, the
     * connect deferred to a task of the loop. In {@code bench/fidelity}'s profile at 256 streams that overhead was
     * ~3% of the event loop.
     *
     * @param loop the event loop the connection is registered with (the caller runs on it)
     * @return the connect's future
     * @throws RuntimeException when the channel cannot be created or set up (then nothing is left open)
     */
    private ChannelFuture connect(EventLoop loop) {
        Channel ch = channels.newChannel();
        try {
            init(ch);
        } catch (RuntimeException e) {
            ch.unsafe().closeForcibly();
            throw e;
        }
        ChannelFuture reg = loop.register(ch);
        if (reg.isDone() && !reg.isSuccess()) {
            if (ch.isRegistered()) {
                ch.close();
            } else {
                ch.unsafe().closeForcibly();
            }
            return reg;
        }
        ChannelPromise connected = ch.newPromise();
        connected.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        if (reg.isDone()) {
            ch.connect(address, connected);
        } else {
            reg.addListener(r -> {
                if (r.isSuccess()) {
                    ch.connect(address, connected);
                } else {
                    connected.setFailure(r.cause());
                }
            });
        }
        return connected;
    }

    /** A new channel's options and pipeline (the same as {@link #bootstrap}'s). */
    private void init(Channel c) {
        c.config().setOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
        c.config().setOption(ChannelOption.TCP_NODELAY, true);
        c.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs);
        SslHandler tlsHandler = null;
        if (ssl != null) {
            tlsHandler = ssl.newHandler(c.alloc(), host, port);
            tlsHandler.setHandshakeTimeoutMillis(connectTimeoutMs);
            if (verifyHost) {
                SSLEngine engine = tlsHandler.engine();
                SSLParameters params = engine.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS");
                engine.setSSLParameters(params);
            }
        }
        pipeline(c.pipeline(), tlsHandler, this, System::nanoTime);
    }

    /**
     * @return the connection settings of one event loop's new channels to a name that must be resolved (reused for
     *         each connection; a resolved address is connected to by {@link #connect}). Their buffers
     *         (one per socket read) come from Netty's pooled allocator with its per-thread caches rather than
     *         Netty 4.2's default adaptive one: in {@code bench/fidelity/ReadPathBench} (the read path per chunk, C1,
     *         pinned) 3.3-4.0 against 3.7-4.9 µs CPU and 264 against 354 heap bytes per chunk.
     */
    private Bootstrap bootstrap(EventLoop loop) {
        return new Bootstrap().group(loop)
                .channelFactory(vertx.transport().channelFactory(false))
                .resolver(vertx.nameResolver().nettyAddressResolverGroup())
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMs)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        init(c);
                    }
                });
    }

    /**
     * Adds a connection's inbound handlers at the end of its pipeline: the stamp of each socket read
     * ({@link ReadStamp}), TLS if any, the HTTP response decoder ({@link #DECODER}) and the stream handler
     * ({@link #STREAM}). No request encoder: the request is written as its bytes ({@link RequestBytes}).
     *
     * @param p         the pipeline
     * @param tls       the TLS handler, or null for http
     * @param transport the connection's transport
     * @param clock     the stamp of each read, {@link System#nanoTime()} in a run (injected by tests)
     */
    static void pipeline(ChannelPipeline p, SslHandler tls, NettyStreamTransport transport, LongSupplier clock) {
        ReadStamp stamp = new ReadStamp(clock);
        p.addLast("read-stamp", stamp);
        if (tls != null) {
            p.addLast("tls", tls);
        }
        p.addLast(DECODER, new HttpResponseDecoder());
        p.addLast(STREAM, new NettyStreamHandler(transport, stamp));
    }

    private static NewConnections.Opened ready(Channel ch) {
        return new NewConnections.Opened(System.nanoTime(), ch.attr(ConnectStamp.KEY).get());
    }

    /** The connection is the request's: it is written, and the response goes to the exchange. */
    private void handOver(StreamExchange ex, ContextInternal ctx, Channel ch, NewConnections.Opened opened,
                          ByteBuf req) {
        NettyStreamHandler h = ch.pipeline().get(NettyStreamHandler.class);
        ex.obtained(h.bind(ex, ctx), opened);
        if (ex.finished) { // timed out meanwhile
            req.release();
            ch.close();
            return;
        }
        ch.writeAndFlush(req).addListener(wf -> {
            if (wf.isSuccess()) {
                ex.sentAt = System.nanoTime();
            } else {
                h.failed(wf.cause());
            }
        });
    }

    /** @return an open idle connection of {@code loop}, or null */
    private Channel idleOf(EventLoop loop) {
        ArrayDeque<Channel> q = idle.get(loop);
        if (q == null) {
            return null;
        }
        Channel ch;
        while ((ch = q.pollLast()) != null) {
            if (ch.isActive()) {
                return ch;
            }
        }
        return null;
    }

    /** @return whether the connections are kept alive between requests */
    boolean keepAlive() {
        return keepAlive;
    }

    /** @param ch a connection whose response ended, kept open by the server: idle for its loop's next request */
    void release(Channel ch) {
        if (closed) {
            ch.close();
            return;
        }
        idle.computeIfAbsent(ch.eventLoop(), l -> new ArrayDeque<>()).addLast(ch);
    }

    /** @param ch a connection that closed: no longer idle */
    void closed(Channel ch) {
        ArrayDeque<Channel> q = idle.get(ch.eventLoop());
        if (q != null) {
            q.remove(ch);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Channel ch : open) {
            ch.close();
        }
    }
}
