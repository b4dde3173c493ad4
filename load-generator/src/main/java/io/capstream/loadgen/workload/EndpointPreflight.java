package io.capstream.loadgen.workload;

import io.capstream.schemas.text.BaseUrlHints;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.NotSslRecordException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * The endpoint check before T0: the {@code GET <base>/models} probe (spec §2.1), read for the context
 * window, the listed model ids and what its failure says about the base URL. Sends no load: at most
 * {@code GET <base>/models}, {@code GET <base>/v1/models} and one {@code POST <base>/chat/completions}
 * with the empty body {@code {}} (which no engine answers with a generation).
 *
 * <p>Fatal (the run must not start, {@link Outcome#problem()}): the connection is refused, the host
 * name does not resolve, there is no route or no TCP connection within the connect timeout, the TLS
 * handshake fails (an https URL of a plain-HTTP server among others), an http URL of a server that answers only over
 * TLS; and a base URL that does not end in {@code /v1} while {@code <base>/v1/models}
 * answers 2xx and {@code POST <base><endpoint path>} answers 404 (the endpoint exists one {@code /v1}
 * further). Every other probe failure (an HTTP error on {@code /models}, a timeout waiting for the
 * answer, a closed connection, a body that is not a model list) leaves the window unknown, as the
 * reference does, with a warning; a {@code --model} absent from the listed ids is a warning too.
 * The messages name the base URL as the reports do, its user-info masked ({@code http://***@host/v1},
 * {@link Redaction#urls}); the user-info itself is never sent in the URL (the {@link ApiKey} carries it).
 * Stateless.
 */
public final class EndpointPreflight {
    private EndpointPreflight() {
    }

    /**
     * What the check found.
     *
     * @param window   the probed window, tokens, or null when unknown
     * @param problem  a one-line fatal problem naming what to try, or null when the run may start
     * @param warnings one-line warnings (window unknown, model not listed), in order; never null
     */
    public record Outcome(Integer window, String problem, List<String> warnings) {
        /** Copies the warnings. */
        public Outcome {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * @param vertx        Vert.x instance
     * @param baseUrl      endpoint base URL (a trailing "/" is removed); its user-info, if any, is neither sent nor
     *                     shown (masked as {@code ***@} in the messages)
     * @param endpoint     the API the requests go to; not null
     * @param model        {@code --model}
     * @param apiKey       key for the Authorization header; not null
     * @param headers      the run's {@code -H} headers; not null
     * @param windowWanted whether the window is needed (no {@code --max-model-len}): only then is an unknown
     *                     window a warning
     * @return the outcome; the future never fails
     */
    public static Future<Outcome> check(Vertx vertx, String baseUrl, ApiEndpoint endpoint, String model,
                                        ApiKey apiKey, List<ExtraHeader> headers, boolean windowWanted) {
        return check(vertx, baseUrl, endpoint, model, apiKey, headers, windowWanted, ClientTls.DEFAULT);
    }

    /**
     * As {@link #check(Vertx, String, ApiEndpoint, String, ApiKey, List, boolean)}, checking an https endpoint's
     * certificate as {@code tls} says ({@code --insecure}, {@code --ca-cert}).
     *
     * @param vertx        Vert.x instance
     * @param baseUrl      endpoint base URL; its user-info, if any, is neither sent nor shown ({@code ***@})
     * @param endpoint     the API the requests go to; not null
     * @param model        {@code --model}
     * @param apiKey       key for the Authorization header; not null
     * @param headers      the run's {@code -H} headers; not null
     * @param windowWanted whether the window is needed
     * @param tls          how the certificate is checked; not null
     * @return the outcome; the future never fails
     */
    public static Future<Outcome> check(Vertx vertx, String baseUrl, ApiEndpoint endpoint, String model,
                                        ApiKey apiKey, List<ExtraHeader> headers, boolean windowWanted,
                                        ClientTls tls) {
        String base = ModelsProbe.stripSlash(HttpUrls.withoutUserInfo(baseUrl));
        String shown = ModelsProbe.stripSlash(Redaction.url(baseUrl));
        return ProbeRequest.send(vertx, HttpMethod.GET, base + "/models", null, apiKey, headers, tls).compose(models -> {
            if (models.failure() != null) {
                String fatal = transportProblem(models.failure(), shown);
                if (fatal != null) {
                    return Future.succeededFuture(new Outcome(null, fatal, List.of()));
                }
                boolean https = base.regionMatches(true, 0, "https://", 0, 8);
                // a plain-HTTP server may let a TLS handshake hang rather than refuse it (llama-server does)
                if (https || !(models.failure() instanceof java.util.concurrent.TimeoutException)) {
                    return otherScheme(vertx, base, shown, https).compose(other -> other != null
                            ? Future.succeededFuture(new Outcome(null, other, List.of()))
                            : answered(vertx, base, shown, endpoint, model, apiKey, headers, windowWanted, tls,
                                    models));
                }
            }
            return answered(vertx, base, shown, endpoint, model, apiKey, headers, windowWanted, tls, models);
        });
    }

    /**
     * A base URL whose {@code GET /models} got no HTTP answer: does the server answer with the other scheme there (TLS
     * for an http URL, plain HTTP for an https one)? Asked with one {@code GET /models} that trusts any certificate and
     * carries neither the key nor the headers.
     *
     * @param base  the base URL without user-info, asked
     * @param shown the base URL as the messages show it (user-info masked)
     * @param https whether the base URL is https
     * @return the fatal problem naming the URL to try, or null when the other scheme does not answer either
     */
    private static Future<String> otherScheme(Vertx vertx, String base, String shown, boolean https) {
        String other = otherScheme(base, https);
        String otherShown = otherScheme(shown, https);
        return ProbeRequest.send(vertx, HttpMethod.GET, other + "/models", null, ApiKey.none(), List.of(),
                new ClientTls(true, null)).map(a -> a.failure() != null ? null : https
                ? "TLS handshake failed with " + hostPort(base) + " (no answer over TLS), but it answers plain HTTP:"
                        + " the server speaks plain HTTP? try " + BaseUrlHints.suggest(otherShown, otherShown,
                        "with http:// instead of https://")
                : "no HTTP answer from " + hostPort(base) + " over plain HTTP, but it answers over TLS: the server"
                        + " speaks https? try " + BaseUrlHints.suggest(otherShown, otherShown,
                        "with https:// instead of http://")
                        + " (with --ca-cert FILE, or --insecure for a self-signed test endpoint)");
    }

    /** @return {@code url} with the other scheme (http for https, https for http) */
    private static String otherScheme(String url, boolean https) {
        return https ? "http://" + url.substring("https://".length()) : "https://" + url.substring("http://".length());
    }

    /** The outcome once {@code GET /models} answered or failed in a way no request of the run must fail. */
    private static Future<Outcome> answered(Vertx vertx, String base, String shown, ApiEndpoint endpoint, String model,
                                            ApiKey apiKey, List<ExtraHeader> headers, boolean windowWanted,
                                            ClientTls tls, ProbeRequest.Answer models) {
        List<String> warnings = new ArrayList<>();
        Integer window = models.ok() ? ModelsProbe.parse(models.body(), model) : null;
        if (windowWanted && window == null) {
            warnings.add(unknownWindow(base, models));
        }
        if (models.ok()) {
            List<String> ids = ModelsProbe.modelIds(models.body());
            if (!ids.isEmpty() && !ids.contains(model)) {
                warnings.add("--model '" + model + "' is not among the ids GET " + path(base) + "/models lists ("
                        + shortList(ids) + "): the requests may fail");
            }
        }
        if (path(base).endsWith("/v1")) {
            return Future.succeededFuture(new Outcome(window, null, warnings));
        }
        return missingV1(vertx, base, shown, endpoint, apiKey, headers, models, tls)
                .map(problem -> new Outcome(window, problem, problem == null ? warnings : List.of()));
    }

    /** @return the fatal "/v1 missing" problem, or null when the base URL may be right */
    private static Future<String> missingV1(Vertx vertx, String base, String shown, ApiEndpoint endpoint,
                                            ApiKey apiKey, List<ExtraHeader> headers, ProbeRequest.Answer models,
                                            ClientTls tls) {
        return ProbeRequest.send(vertx, HttpMethod.GET, base + "/v1/models", null, apiKey, headers, tls).compose(v1 -> {
            if (!v1.ok()) {
                return Future.succeededFuture(null);
            }
            return ProbeRequest.send(vertx, HttpMethod.POST, base + endpoint.path(), "{}", apiKey, headers, tls)
                    .map(chat -> chat.status() != 404 ? null : shown + " answered 404 to "
                            + (models.status() == 404 ? "GET /models and " : "") + "POST " + endpoint.path()
                            + " but serves GET /v1/models: the base URL usually ends in /v1 (try "
                            + BaseUrlHints.suggest("--base-url " + shown + "/v1", shown + "/v1", "with /v1 appended")
                            + ")");
        });
    }

    /**
     * A failure no request of the run could get past.
     *
     * @param failure why an exchange got no response
     * @param base    the base URL as the message shows it (user-info masked: {@link Redaction#urls})
     * @return a one-line problem naming what to try, or null when the failure may be particular to the probe
     */
    static String transportProblem(Throwable failure, String base) {
        String hostPort = hostPort(base);
        String tls = null;
        for (Throwable x = failure; x != null; x = x.getCause()) {
            String msg = String.valueOf(x.getMessage());
            if (x instanceof NotSslRecordException || msg.contains("not an SSL/TLS record")) {
                String plain = base.replaceFirst("(?i)^https://", "http://");
                return "TLS handshake failed with " + hostPort + ": the server speaks plain HTTP? try "
                        + BaseUrlHints.suggest(plain, plain, "with http:// instead of https://");
            }
            if (x instanceof SSLException && tls == null) {
                Throwable root = x;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                tls = "TLS handshake failed with " + hostPort + " (" + root.getMessage() + "): is its certificate"
                        + " trusted by this"
                        + " JVM (else give --ca-cert FILE, or --insecure for a test endpoint), or does it speak plain"
                        + " HTTP (try http://)?";
            }
        }
        if (tls != null) {
            return tls;
        }
        for (Throwable x = failure; x != null; x = x.getCause()) {
            String msg = String.valueOf(x.getMessage());
            if (x instanceof ConnectException && msg.toLowerCase(Locale.ROOT).contains("refused")) {
                return "connection refused: nothing listens on " + hostPort + " (--base-url " + base + ")";
            }
            if (x instanceof UnknownHostException) {
                return "cannot resolve the host name " + hostPort.substring(0, hostPort.lastIndexOf(':'))
                        + " (--base-url " + base + "): is it spelled right?";
            }
            if (x instanceof NoRouteToHostException) {
                return "no route to " + hostPort + " (--base-url " + base + ")";
            }
            if (x instanceof ConnectTimeoutException) {
                return "no TCP connection to " + hostPort + " within " + ProbeRequest.CONNECT_TIMEOUT_MS / 1000
                        + " s: is the host right, or does a firewall drop the packets?";
            }
        }
        return null;
    }

    private static String unknownWindow(String base, ProbeRequest.Answer models) {
        String what;
        if (models.failure() != null) {
            what = "got no answer (" + describe(models.failure()) + ")";
        } else if (models.ok()) {
            what = "names no context window for the model";
        } else {
            what = "answered " + models.status() + (models.status() == 401 || models.status() == 403
                    ? " (is --api-key-env right?)" : "");
        }
        return "GET " + path(base) + "/models " + what + ": the context window is unknown, so the prompts are not"
                + " capped and --ctx-tokens is not checked (--max-model-len gives the window)";
    }

    private static String describe(Throwable t) {
        if (t instanceof java.util.concurrent.TimeoutException) {
            return "none within " + ProbeRequest.TIMEOUT_MS / 1000 + " s";
        }
        String m = t.getMessage();
        return m == null || m.isEmpty() ? t.getClass().getSimpleName() : m;
    }

    private static String shortList(List<String> ids) {
        int shown = Math.min(ids.size(), 5);
        return String.join(", ", ids.subList(0, shown)) + (ids.size() > shown ? ", ... " + ids.size() + " in all" : "");
    }

    /** @return the URL's path without a trailing "/", "" when it has none */
    static String path(String base) {
        try {
            String p = URI.create(base).getRawPath();
            return p == null ? "" : ModelsProbe.stripSlash(p);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** @return {@code host:port} of the URL, with the scheme's default port when none is given */
    static String hostPort(String base) {
        try {
            URI u = URI.create(base);
            int port = u.getPort() > 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
            return u.getHost() + ":" + port;
        } catch (IllegalArgumentException e) {
            return base;
        }
    }
}
