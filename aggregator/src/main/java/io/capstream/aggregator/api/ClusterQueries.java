package io.capstream.aggregator.api;

import io.capstream.aggregator.AggregatorTopology;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The HTTP API's queries across the aggregator instances that share one application id, without
 * blocking the event loop: a keyed lookup (a run's report) is answered here when this instance owns
 * the key and else forwarded to the owner ({@link InstanceLocator#remoteOwner}) whose answer is passed
 * on; a range query is answered from this instance's stores and those of every other instance holding
 * partitions of the store ({@link InstanceLocator#hosts}), merged ({@link JsonArrayMerge}). A
 * {@code localOnly} query (one forwarded by another instance) is answered from the local stores only.
 *
 * <p>Failures of the returned futures: {@link QueryService.NotReadyException} (HTTP 503) while Streams
 * rebalances, while an owner is unknown, and when another instance cannot be reached or does not answer
 * 200 to a range query (the message names it: no partial answer is given); anything else is a bug (500).
 */
final class ClusterQueries {
    private final Vertx vertx;
    private final QueryService queries;
    private final InstanceLocator locator;
    private final PeerClient peers;

    /**
     * @param vertx   the API's Vert.x (runs the blocking store reads); not null
     * @param queries this instance's stores; not null
     * @param locator who holds what; not null
     * @param peers   the client to the other instances; not null
     */
    ClusterQueries(Vertx vertx, QueryService queries, InstanceLocator locator, PeerClient peers) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.queries = Objects.requireNonNull(queries, "queries");
        this.locator = Objects.requireNonNull(locator, "locator");
        this.peers = Objects.requireNonNull(peers, "peers");
    }

    /** @return this instance's stores */
    QueryService local() {
        return queries;
    }

    /**
     * {@code GET /api/runs/{id}} wherever the run's report is.
     *
     * @param runId     the run id; not null
     * @param localOnly answer from this instance's stores only
     * @return 200 with the artifact JSON, 404 with a JSON error when unknown; from the owner: its answer as it is
     */
    Future<PeerResponse> artifact(String runId, boolean localOnly) {
        Optional<AdvertisedUrl> owner;
        try {
            owner = localOnly ? Optional.empty() : locator.remoteOwner(AggregatorTopology.REPORTS_STORE, runId);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        if (owner.isPresent()) {
            String uri = "/api/runs/" + URLEncoder.encode(runId, StandardCharsets.UTF_8).replace("+", "%20");
            return peers.get(owner.get(), uri).recover(e -> Future.failedFuture(unreachable(owner.get(), uri, e)));
        }
        return vertx.executeBlocking(() -> queries.artifact(runId)).map(found -> found
                .map(bytes -> new PeerResponse(200, "application/json", Buffer.buffer(bytes)))
                .orElseGet(() -> new PeerResponse(404, "application/json",
                        Buffer.buffer(new JsonObject().put("error", "no report for run " + runId).encode()))));
    }

    /**
     * A range query over every instance holding partitions of {@code store}.
     *
     * @param store        the store the query reads; not null
     * @param localAnswer  this instance's answer, a JSON array (runs off the event loop); not null
     * @param pathAndQuery the same query for the other instances (encoded, explicit parameters); not null
     * @param merge        how the answers merge; not null
     * @param localOnly    answer from this instance's stores only
     * @return the JSON array; {@code []} from an instance holding no partition of the store
     */
    Future<String> range(String store, Callable<String> localAnswer, String pathAndQuery, JsonArrayMerge merge,
                         boolean localOnly) {
        InstanceLocator.StoreHosts hosts;
        try {
            hosts = locator.hosts(store);
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        List<Future<String>> parts = new ArrayList<>();
        parts.add(hosts.local() ? vertx.executeBlocking(localAnswer) : Future.succeededFuture("[]"));
        if (!localOnly) {
            for (AdvertisedUrl peer : hosts.peers()) {
                parts.add(peers.get(peer, pathAndQuery).transform(ar -> ar.failed()
                        ? Future.failedFuture(unreachable(peer, pathAndQuery, ar.cause()))
                        : ar.result().status() == 200 ? Future.succeededFuture(ar.result().body().toString(StandardCharsets.UTF_8))
                        : Future.failedFuture(refused(peer, pathAndQuery, ar.result()))));
            }
        }
        return Future.all(parts).compose(all -> {
            List<String> arrays = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                arrays.add(all.resultAt(i));
            }
            return vertx.executeBlocking(() -> merge.merge(arrays));
        });
    }

    private static QueryService.NotReadyException unreachable(AdvertisedUrl peer, String uri, Throwable cause) {
        return new QueryService.NotReadyException("aggregator instance " + peer + " did not answer GET " + uri + ": "
                + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
    }

    private static QueryService.NotReadyException refused(AdvertisedUrl peer, String uri, PeerResponse r) {
        String body = r.body().toString(StandardCharsets.UTF_8);
        String why;
        try {
            why = new JsonObject(body).getString("error", body);
        } catch (RuntimeException e) {
            why = body.length() > 200 ? body.substring(0, 200) + "..." : body;
        }
        return new QueryService.NotReadyException("aggregator instance " + peer + " answered " + r.status() + " to GET "
                + uri + ": " + why, null);
    }
}
