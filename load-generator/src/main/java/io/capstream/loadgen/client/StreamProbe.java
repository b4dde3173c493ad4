package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


import io.capstream.schemas.text.SecretMask;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ClientTls;
import io.capstream.loadgen.workload.ExtraHeader;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sends the requests of {@code capstream check}, one at a time, each on a fresh connection with the run's headers (Authorization from
 * {@code --api-key-env}, {@code -H}) and read whole: every body goes through the load generator's own SSE framing
 * ({@link SseLineSplitter}, {@link SseEventAssembler}), with comment and field lines noted on the way, so the check
 * sees a stream as a run would. Each exchange is bounded by the time given (connect, answer and body); its future
 * never fails.
 */
public final class StreamProbe implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Vertx vertx;
    private final HttpClient http;
    private final ApiKey apiKey;
    private final List<ExtraHeader> headers;
    private final SecretMask mask;

    /**
     * @param vertx   Vert.x instance (not closed here); not null
     * @param apiKey  credentials sent as {@code Authorization}; not null
     * @param headers the {@code -H} headers; not null
     * @param tls     how an https certificate is checked; not null
     * @param mask    secrets masked in failure messages; not null
     */
    public StreamProbe(Vertx vertx, ApiKey apiKey, List<ExtraHeader> headers, ClientTls tls, SecretMask mask) {
        this.vertx = vertx;
        this.apiKey = apiKey;
        this.headers = List.copyOf(headers);
        this.mask = mask;
        this.http = vertx.createHttpClient(tls.apply(new HttpClientOptions().setKeepAlive(false)
                .setConnectTimeout(10_000)));
    }

    /**
     * @param url       absolute URL without user-info
     * @param body      JSON body; not null
     * @param timeoutMs bound of the whole exchange, ms
     * @return the exchange of a {@code POST}; never fails
     */
    public Future<ProbeExchange> post(String url, String body, long timeoutMs) {
        return send(HttpMethod.POST, url, body, timeoutMs);
    }

    /**
     * @param url       absolute URL without user-info
     * @param timeoutMs bound of the whole exchange, ms
     * @return the exchange of a {@code GET}; never fails
     */
    public Future<ProbeExchange> get(String url, long timeoutMs) {
        return send(HttpMethod.GET, url, null, timeoutMs);
    }

    private Future<ProbeExchange> send(HttpMethod method, String url, String body, long timeoutMs) {
        Promise<ProbeExchange> result = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> start(method, url, body, Math.max(1, timeoutMs), result));
        return result.future();
    }

    private void start(HttpMethod method, String url, String body, long timeoutMs, Promise<ProbeExchange> result) {
        RequestOptions ro;
        try {
            ro = new RequestOptions().setMethod(method).setAbsoluteURI(url)
                    .setConnectTimeout(Math.min(timeoutMs, 10_000)).setIdleTimeout(timeoutMs)
                    .putHeader("Accept-Encoding", "identity").putHeader("User-Agent", "capstream");
            if (body != null) {
                ro.putHeader("Content-Type", "application/json");
            }
            apiKey.authorizationHeader().ifPresent(h -> ro.putHeader("Authorization", h));
            ExtraHeader.apply(headers, ro.getHeaders());
        } catch (RuntimeException e) {
            result.tryComplete(ProbeExchange.failed(oneLine(e)));
            return;
        }
        Reader reader = new Reader();
        long timer = vertx.setTimer(timeoutMs, t -> result.tryComplete(reader.partial(
                "no complete answer within " + timeoutMs + " ms")));
        http.request(ro)
                .compose(req -> body == null ? req.send() : req.send(Buffer.buffer(body)))
                .onSuccess(resp -> {
                    reader.response(resp);
                    resp.handler(reader::feed);
                    resp.exceptionHandler(e -> {
                        vertx.cancelTimer(timer);
                        result.tryComplete(reader.partial(oneLine(e)));
                    });
                    resp.endHandler(v -> {
                        vertx.cancelTimer(timer);
                        result.tryComplete(reader.finish());
                    });
                })
                .onFailure(e -> {
                    vertx.cancelTimer(timer);
                    result.tryComplete(ProbeExchange.failed(oneLine(e)));
                });
    }

    private String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return mask.apply(m.replaceAll("\\s+", " ").strip());
    }

    @Override
    public void close() {
        http.close();
    }

    /** Reads one response: status, headers, the SSE items and the raw body's start. */
    private static final class Reader implements SseLineSplitter.LineHandler, SseEventAssembler.PayloadHandler {
        private final List<SseItem> items = new ArrayList<>();
        private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        private final SseEventAssembler assembler = new SseEventAssembler(this);
        private final SseLineSplitter splitter = new SseLineSplitter(this);
        private final Map<String, String> headers = new HashMap<>();
        private int status;
        private String contentType;
        private JsonNode parsed;
        private boolean doneSeen;

        void response(HttpClientResponse resp) {
            status = resp.statusCode();
            contentType = resp.getHeader("content-type");
            resp.headers().forEach(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
        }

        void feed(Buffer b) {
            byte[] bytes = b.getBytes();
            if (raw.size() < ProbeExchange.MAX_BODY) {
                raw.write(bytes, 0, Math.min(bytes.length, ProbeExchange.MAX_BODY - raw.size()));
            }
            assembler.at(System.nanoTime());
            splitter.feed(bytes, 0, bytes.length);
            noteDone();
        }

        ProbeExchange finish() {
            splitter.finish();
            noteDone();
            return new ProbeExchange(status, contentType, headers, items, raw.toByteArray(), null);
        }

        ProbeExchange partial(String failure) {
            return new ProbeExchange(status, contentType, headers, items, raw.toByteArray(), failure);
        }

        private void noteDone() {
            if (assembler.done() && !doneSeen) {
                doneSeen = true;
                items.add(new SseItem(SseItem.Kind.DONE, null, null));
            }
        }

        @Override
        public boolean onLine(byte[] buf, int off, int len) {
            String line = new String(buf, off, len, StandardCharsets.UTF_8).strip();
            if (line.startsWith(":")) {
                items.add(SseItem.line(SseItem.Kind.COMMENT, line));
            } else if (line.startsWith("event:") || line.startsWith("id:") || line.startsWith("retry:")) {
                items.add(SseItem.line(SseItem.Kind.FIELD, line));
            }
            return assembler.onLine(buf, off, len);
        }

        @Override
        public boolean onEnd() {
            return assembler.onEnd();
        }

        @Override
        public void dataLine(long atNs) {
        }

        @Override
        public SseEventAssembler.Parse parse(byte[] buf, int off, int len) {
            try {
                parsed = JSON.readTree(buf, off, len);
                if (parsed == null || parsed.isMissingNode()) {
                    return SseEventAssembler.Parse.INVALID;
                }
                return SseEventAssembler.Parse.PARSED;
            } catch (JsonEOFException e) {
                return SseEventAssembler.Parse.INCOMPLETE;
            } catch (Exception e) {
                items.add(SseItem.line(SseItem.Kind.INVALID, new String(buf, off, len, StandardCharsets.UTF_8)));
                return SseEventAssembler.Parse.INVALID;
            }
        }

        @Override
        public boolean apply(long atNs) {
            items.add(SseItem.data(parsed));
            return true;
        }
    }
}
