package io.capstream.aggregator.otlp;

import io.capstream.aggregator.api.WindowTotals;
import io.capstream.aggregator.window.LatencyMeasure;
import io.capstream.schemas.text.Redaction;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The attributes of one exported series: the GenAI conventions' {@code gen_ai.operation.name},
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model}, {@code server.address} and {@code server.port} (from the
 * target URL), and capstream's own dimensions under {@code capstream.*} ({@code capstream.target} with its user-info masked,
 * {@code capstream.context_bucket}). No run id: a series spans every run against the same target and model. Stateless.
 */
final class GenAiAttributes {
    /** {@code gen_ai.operation.name}: chat or embeddings. */
    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    /** {@code gen_ai.provider.name}: from {@code aggregate --engine}. */
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    /** {@code gen_ai.request.model}: the model id the requests named. */
    public static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
    /** {@code gen_ai.token.type} of v1.41's {@code gen_ai.client.token.usage}: input or output. */
    public static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");
    /** {@code server.address}: the target's host, without user-info or brackets. */
    public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    /** {@code server.port}: the target's port (80 / 443 when the URL has none). */
    public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    /** {@code error.type}: the error type of failed requests (capstream's error types, e.g. HTTPError, Timeout). */
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    /** {@code capstream.target}: the target base URL, its user-info masked ({@code http://***@host/v1}). */
    public static final AttributeKey<String> TARGET = AttributeKey.stringKey("capstream.target");
    /** {@code capstream.context_bucket}: the context bucket label, e.g. le4096. */
    public static final AttributeKey<String> CONTEXT_BUCKET = AttributeKey.stringKey("capstream.context_bucket");
    /** {@code capstream.outcome} of the requests counter: completed, failed or cancelled. */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("capstream.outcome");

    /** {@code gen_ai.operation.name} of streamed requests. */
    public static final String CHAT = "chat";
    /** {@code gen_ai.operation.name} of requests that are not streamed ({@link LatencyMeasure#REQUEST_LATENCY}). */
    public static final String EMBEDDINGS = "embeddings";

    private GenAiAttributes() {
    }

    /**
     * @param m a latency measure
     * @return its {@code gen_ai.operation.name}: embeddings for the request latency of requests that are not
     *         streamed, chat for the streamed measures
     */
    public static String operation(LatencyMeasure m) {
        return m == LatencyMeasure.REQUEST_LATENCY ? EMBEDDINGS : CHAT;
    }

    /**
     * The operation of a series' counters (requests, tokens), which a window does not split by operation: embeddings
     * when the series has request latencies and no streamed latency, else chat.
     *
     * @param s a series; not null
     * @return chat or embeddings
     */
    public static String operation(WindowTotals.Snapshot s) {
        boolean streamed = s.histograms().keySet().stream().anyMatch(m -> m != LatencyMeasure.REQUEST_LATENCY);
        return !streamed && s.histograms().containsKey(LatencyMeasure.REQUEST_LATENCY) ? EMBEDDINGS : CHAT;
    }

    /**
     * @param key       the series; not null
     * @param provider  {@code gen_ai.provider.name}; not null
     * @param operation {@code gen_ai.operation.name}; not null
     * @return a builder with every attribute of the series; callers add {@code error.type} and the like
     */
    public static AttributesBuilder of(WindowTotals.SeriesKey key, String provider, String operation) {
        String target = withoutUserInfo(key.target());
        // capstream.target keeps the user-info's place, masked, as /metrics' target label does: one endpoint measured
        // with and without credentials is two window series, and without it they were two points with the same
        // attributes in one export (a backend keeps one of them: a fresh user's 18 + 9 requests became 9)
        AttributesBuilder b = Attributes.builder().put(OPERATION, operation).put(PROVIDER, provider)
                .put(MODEL, key.model()).put(TARGET, Redaction.url(key.target()))
                .put(CONTEXT_BUCKET, key.contextBucket());
        try {
            URI uri = new URI(target);
            String host = uri.getHost();
            if (host != null) {
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                b.put(SERVER_ADDRESS, host);
                int port = uri.getPort() >= 0 ? uri.getPort()
                        : "https".equals(String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT)) ? 443 : 80;
                b.put(SERVER_PORT, port);
            }
        } catch (URISyntaxException e) {
            // not a URL (e.g. an imported run's label): no server.address / server.port
        }
        return b;
    }

    /**
     * @param url a URL, possibly with {@code user[:password]@} (masked or not) before its host; not null
     * @return the URL without that part; other text unchanged
     */
    static String withoutUserInfo(String url) {
        int scheme = url.indexOf("://");
        int from = scheme < 0 ? 0 : scheme + 3;
        int end = url.length();
        for (int i = from; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        int at = url.lastIndexOf('@', end - 1);
        return at < from ? url : url.substring(0, from) + url.substring(at + 1);
    }
}
