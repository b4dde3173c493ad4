package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.text.BaseUrlHints;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The target group of a {@link RunConfig}: which endpoint and model the load goes to, how the client
 * connects and authenticates, and the engine label recorded in the report (spec §1, §2.3).
 *
 * <p>When the built-in simulated engine is the target ({@code simulated}), its base URL is only known
 * once the engine listens: the target is then resolved with a null {@code baseUrl}, checked without it
 * ({@link #problems(Function)} skips the URL rules) and bound with {@link #withBaseUrl(String)} before
 * the run is planned. The API key itself is never part of the config: only the name of its variable.
 *
 * @param baseUrl   endpoint base URL, usually ending in {@code /v1}; null only while a simulated target
 *                  is unbound. A {@code user:password@} in it is sent as HTTP basic auth and recorded as
 *                  {@code ***@} ({@link Redaction#urls})
 * @param simulated the target is capstream's simulated engine, started by the caller (its URL may be unbound)
 * @param model     model id sent in each request; required
 * @param engine    engine label recorded in the report, or null
 * @param apiKeyEnv {@code --api-key-env}: name of the environment variable holding the key, or null
 * @param timeoutS  {@code --timeout}: socket timeout per connect and per read, seconds (default 900)
 * @param keepAlive reuse connections (a deviation from the reference, which opens one per request)
 * @param endpoint  {@code --endpoint}: chat (the reference) or completions; null means chat
 * @param headers   {@code -H} headers sent with every request and the {@code /models} probe, in order; null
 *                  means none
 * @param tls       how an https target's certificate is checked ({@code --insecure}, {@code --ca-cert}; issue 30);
 *                  null means {@link TlsConfig#DEFAULT}
 * @param traceHeaders send the correlation headers ({@code traceparent}, {@code X-Request-Id}; issue 33) with every
 *                  request; true unless {@code --no-trace-headers}
 * @param httpClient the HTTP client of the streamed requests ({@code --http-client}, issue 33); null means
 *                  {@link io.capstream.loadgen.client.HttpClientKind#DEFAULT}
 */
public record TargetConfig(String baseUrl, boolean simulated, String model, String engine, String apiKeyEnv,
                           double timeoutS, boolean keepAlive, ApiEndpoint endpoint, List<ExtraHeader> headers,
                           TlsConfig tls, boolean traceHeaders, io.capstream.loadgen.client.HttpClientKind httpClient) {

    /** Fills the defaults: chat, no extra headers, the JVM's trust store, the default HTTP client. */
    public TargetConfig {
        endpoint = endpoint == null ? ApiEndpoint.CHAT : endpoint;
        headers = headers == null ? List.of() : List.copyOf(headers);
        tls = tls == null ? TlsConfig.DEFAULT : tls;
        httpClient = httpClient == null ? io.capstream.loadgen.client.HttpClientKind.DEFAULT : httpClient;
    }

    /**
     * A target with the default HTTP client.
     *
     * @see #TargetConfig(String, boolean, String, String, String, double, boolean, ApiEndpoint, List, TlsConfig,
     *      boolean, io.capstream.loadgen.client.HttpClientKind)
     */
    public TargetConfig(String baseUrl, boolean simulated, String model, String engine, String apiKeyEnv,
                        double timeoutS, boolean keepAlive, ApiEndpoint endpoint, List<ExtraHeader> headers,
                        TlsConfig tls, boolean traceHeaders) {
        this(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers, tls, traceHeaders,
                null);
    }

    /**
     * A target that sends the trace headers.
     *
     * @see #TargetConfig(String, boolean, String, String, String, double, boolean, ApiEndpoint, List, TlsConfig,
     *      boolean)
     */
    public TargetConfig(String baseUrl, boolean simulated, String model, String engine, String apiKeyEnv,
                        double timeoutS, boolean keepAlive, ApiEndpoint endpoint, List<ExtraHeader> headers,
                        TlsConfig tls) {
        this(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers, tls, true);
    }

    /**
     * A target whose certificate is checked against the JVM's trust store.
     *
     * @see #TargetConfig(String, boolean, String, String, String, double, boolean, ApiEndpoint, List, TlsConfig)
     */
    public TargetConfig(String baseUrl, boolean simulated, String model, String engine, String apiKeyEnv,
                        double timeoutS, boolean keepAlive, ApiEndpoint endpoint, List<ExtraHeader> headers) {
        this(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers, TlsConfig.DEFAULT);
    }

    /**
     * A chat target without extra headers.
     *
     * @param baseUrl   endpoint base URL, or null while a simulated target is unbound
     * @param simulated the target is capstream's simulated engine
     * @param model     model id
     * @param engine    engine label, or null
     * @param apiKeyEnv name of the API key variable, or null
     * @param timeoutS  socket timeout, seconds
     * @param keepAlive reuse connections
     */
    public TargetConfig(String baseUrl, boolean simulated, String model, String engine, String apiKeyEnv,
                        double timeoutS, boolean keepAlive) {
        this(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, ApiEndpoint.CHAT, List.of());
    }

    /**
     * A target with the reference's defaults: not simulated, no engine label, no API key variable, a
     * {@value RunConfig#DEFAULT_TIMEOUT_S} s socket timeout, a new connection per request, chat, no extra headers.
     *
     * @param baseUrl endpoint base URL (usually ends in /v1); null only for an unbound simulated target
     * @param model   model id
     * @return the target (not validated: {@link #problems(Function)})
     */
    public static TargetConfig of(String baseUrl, String model) {
        return new TargetConfig(baseUrl, false, model, null, null, RunConfig.DEFAULT_TIMEOUT_S, false,
                ApiEndpoint.CHAT, List.of());
    }

    /**
     * The built-in simulated engine as the target, its URL not bound yet ({@link #withBaseUrl} binds it once it
     * listens), otherwise {@link #of}'s defaults.
     *
     * @param model model id
     * @return the unbound target
     */
    public static TargetConfig simulated(String model) {
        return new TargetConfig(null, true, model, null, null, RunConfig.DEFAULT_TIMEOUT_S, false,
                ApiEndpoint.CHAT, List.of());
    }

    /** @param v model id @return a copy with it */
    public TargetConfig withModel(String v) {
        return new TargetConfig(baseUrl, simulated, v, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /** @param v engine label, or null @return a copy with it */
    public TargetConfig withEngine(String v) {
        return new TargetConfig(baseUrl, simulated, model, v, apiKeyEnv, timeoutS, keepAlive, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /** @param v socket timeout, seconds @return a copy with it */
    public TargetConfig withTimeoutS(double v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, v, keepAlive, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /** @param v reuse connections @return a copy with it */
    public TargetConfig withKeepAlive(boolean v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, v, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /** @param v chat or completions (null = chat) @return a copy with it */
    public TargetConfig withEndpoint(ApiEndpoint v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, v, headers, tls, traceHeaders, httpClient);
    }

    /** @param v headers sent with every request, in order (null = none) @return a copy with them */
    public TargetConfig withHeaders(List<ExtraHeader> v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, v, tls, traceHeaders, httpClient);
    }

    /** @param v how an https target's certificate is checked (null = the JVM's trust store) @return a copy with it */
    public TargetConfig withTls(TlsConfig v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers,
                v, traceHeaders, httpClient);
    }

    /**
     * @param v send the correlation headers ({@code traceparent}, {@code X-Request-Id}) with every request
     * @return a copy with it
     */
    public TargetConfig withTraceHeaders(boolean v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers,
                tls, v, httpClient);
    }

    /**
     * @param v the HTTP client of the streamed requests ({@code --http-client}); null means the default
     * @return a copy with it
     */
    public TargetConfig withHttpClient(io.capstream.loadgen.client.HttpClientKind v) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeoutS, keepAlive, endpoint, headers,
                tls, traceHeaders, v);
    }

    /** @return whether the base URL is still to be bound (a simulated target before its engine listens) */
    public boolean unbound() {
        return simulated && baseUrl == null;
    }

    /**
     * @param url the base URL of the started engine; not null
     * @return a copy targeting {@code url}
     */
    public TargetConfig withBaseUrl(String url) {
        return new TargetConfig(java.util.Objects.requireNonNull(url, "url"), simulated, model, engine, apiKeyEnv,
                timeoutS, keepAlive, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /**
     * @param name the name of the environment variable holding the API key, or null for none
     * @return a copy with this {@code apiKeyEnv}
     */
    public TargetConfig withApiKeyEnv(String name) {
        return new TargetConfig(baseUrl, simulated, model, engine, name, timeoutS, keepAlive, endpoint, headers, tls, traceHeaders, httpClient);
    }

    /**
     * @param timeout the socket timeout, seconds
     * @param reuse   whether connections are reused
     * @param api     the endpoint; null means chat
     * @return a copy with this {@code timeoutS}, {@code keepAlive} and {@code endpoint} (how the requests are sent)
     */
    public TargetConfig withConnection(double timeout, boolean reuse, ApiEndpoint api) {
        return new TargetConfig(baseUrl, simulated, model, engine, apiKeyEnv, timeout, reuse, api, headers, tls, traceHeaders, httpClient);
    }

    /**
     * A base URL that already names an API path ({@code …/v1/chat/completions}, {@code …/v1/completions},
     * {@code …/v1/models}): capstream appends the endpoint's path itself. {@code run} and {@code check} both say it.
     *
     * @param baseUrl  the {@code --base-url}; not null
     * @param endpoint the API the requests go to; not null
     * @return the usage error naming the base to give (user-info masked), or null
     */
    public static String apiPathProblem(String baseUrl, ApiEndpoint endpoint) {
        String url = Redaction.url(baseUrl.strip());
        String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        for (String suffix : List.of("/chat/completions", "/completions", "/models")) {
            if (trimmed.toLowerCase(java.util.Locale.ROOT).endsWith(suffix)) {
                String base = trimmed.substring(0, trimmed.length() - suffix.length());
                return "--base-url " + url + " ends in " + suffix + ": give the base ("
                        + BaseUrlHints.suggest(base, base, "without " + suffix) + "); capstream appends "
                        + endpoint.path();
            }
        }
        return null;
    }

    /**
     * Checks the group (spec §1, §2.3): the base URL ({@link HttpUrls#problem}, and that it names no API path such
     * as {@code /chat/completions}; skipped while
     * {@link #unbound()}), the model, the socket timeout, and that the API key variable is set and
     * not combined with credentials in the URL.
     *
     * @param env environment lookup (name to value, null when unset), e.g. {@code System::getenv}
     * @return one usage error message per problem, in option order; empty when valid; never null
     */
    public List<String> problems(Function<String, String> env) {
        List<String> errors = new ArrayList<>();
        if (!unbound()) {
            if (baseUrl == null || baseUrl.isBlank()) {
                errors.add("--base-url is required");
            } else {
                String problem = HttpUrls.problem(baseUrl);
                if (problem != null) {
                    errors.add("--base-url " + problem + ": '" + Redaction.url(baseUrl.strip()) + "'");
                } else if (apiPathProblem(baseUrl, endpoint) != null) {
                    errors.add(apiPathProblem(baseUrl, endpoint));
                } else if (apiKeyEnv != null && HttpUrls.userInfo(baseUrl) != null) {
                    errors.add("--base-url carries user:password@ and --api-key-env is set: both would be the"
                            + " Authorization header; give one");
                }
            }
        }
        if (model == null || model.isBlank()) {
            errors.add("--model is required");
        }
        if (!Double.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 3600) {
            errors.add("--timeout must be a finite number of seconds > 0 and <= 3600, got " + timeoutS);
        }
        if (headers.stream().anyMatch(ExtraHeader::isAuthorization)) {
            if (apiKeyEnv != null) {
                errors.add("-H Authorization and --api-key-env both set the Authorization header; give one");
            } else if (baseUrl != null && HttpUrls.userInfo(baseUrl) != null) {
                errors.add("-H Authorization and user:password@ in --base-url both set the Authorization header;"
                        + " give one");
            }
        }
        if (apiKeyEnv != null) {
            String value = env.apply(apiKeyEnv);
            if (value == null || value.strip().isEmpty()) {
                errors.add("--api-key-env names environment variable " + apiKeyEnv + ", which is missing or empty");
            }
        }
        if (tls.problem() != null) {
            errors.add(tls.problem());
        }
        return errors;
    }
}
