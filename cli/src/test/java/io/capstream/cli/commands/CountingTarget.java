package io.capstream.cli.commands;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target on 127.0.0.1 that answers every request with 500 and counts them: tests that must send
 * nothing assert {@link #hits()} stays 0.
 */
final class CountingTarget implements AutoCloseable {
    private final HttpServer server;
    private final AtomicInteger hits = new AtomicInteger();

    CountingTarget() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            hits.incrementAndGet();
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        server.start();
    }

    /** @return the base URL, {@code http://127.0.0.1:<port>/v1} */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** @return requests received so far */
    int hits() {
        return hits.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
