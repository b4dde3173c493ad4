package io.capstream.aggregator.api;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.Objects;

/**
 * Asks another aggregator instance's HTTP API (non-blocking, Vert.x HTTP client). Every request carries
 * {@value #FORWARDED_HEADER}{@code : 1}, so that the other instance answers from its own stores and never
 * forwards it again.
 */
final class PeerClient implements AutoCloseable {
    /** Header of a request forwarded by another instance: answer from the local stores only. */
    static final String FORWARDED_HEADER = "X-Capstream-Forwarded";
    /** How long to wait for a peer to accept the connection, ms. */
    static final long CONNECT_TIMEOUT_MS = 2_000;
    /** How long to wait for a peer's whole answer, ms (a large report is a few MB). */
    static final long TIMEOUT_MS = 30_000;

    private final HttpClientAgent client;

    /** @param vertx the API's Vert.x; not null */
    PeerClient(Vertx vertx) {
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) CONNECT_TIMEOUT_MS));
    }

    /**
     * @param peer         the instance; not null
     * @param pathAndQuery the request URI, e.g. {@code /api/runs/r1} (encoded); not null
     * @return its answer (any status), or a failed future when it could not be reached or did not answer within
     *         {@value #TIMEOUT_MS} ms
     */
    Future<PeerResponse> get(AdvertisedUrl peer, String pathAndQuery) {
        Objects.requireNonNull(peer, "peer");
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(peer.host())
                .setPort(peer.port()).setURI(pathAndQuery).setConnectTimeout(CONNECT_TIMEOUT_MS).setTimeout(TIMEOUT_MS)
                .putHeader(FORWARDED_HEADER, "1");
        return client.request(options).compose(req -> req.send().compose(resp -> resp.body()
                .map(body -> new PeerResponse(resp.statusCode(), resp.getHeader("content-type"), body))));
    }

    @Override
    public void close() {
        try {
            client.close().await();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
