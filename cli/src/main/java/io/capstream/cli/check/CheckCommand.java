package io.capstream.cli.check;

import io.capstream.loadgen.client.StreamProbe;

import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.EndpointOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.TlsOptions;
import io.capstream.loadgen.run.RunSecrets;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.TlsConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.EndpointPreflight;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import io.capstream.schemas.text.SecretMask;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstream check}: a short conformance probe of an endpoint (a handful of requests of a few tokens, within
 * {@code --timeout}) that says, per finding, what the endpoint does that matters for measuring it, whether the
 * capacity protocol can measure it at all, and which options a run needs. See {@link CheckProbe} for what is sent and
 * {@link CheckReport} for the findings. With no {@code --base-url} it checks the built-in simulated engine (with the
 * {@code --sim-} options' behaviours). The verdict line is cached ({@link CheckCache}) for {@code capstream run}.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false, modelTransformer = CheckHelp.class,
        description = {"Probes an endpoint's stream in a few seconds: can the protocol measure it, and which options"
                + " does it need.",
            "Reports what the endpoint does that matters for measuring it: whether it streams (SSE or a whole JSON body), the role chunk, keep-alives,"
                + " empty and \"choices\": [] chunks before the first token, the usage chunk with and without"
                + " stream_options.include_usage, where reasoning arrives (reasoning_content or reasoning) and whether"
                + " enable_thinking false turns it off, the context window from GET /models, whether max_tokens is"
                + " honoured, cached tokens on a repeated prompt, the server's own timings, what a prompt longer"
                + " than the window returns (a clean 4xx or an error inside an HTTP 200 stream), Prometheus /metrics"
                + " at the server root, and the capstream options all this implies.",
            "Sends at most: GET /models, six streamed requests with max_tokens " + ProbeBodies.MAX_TOKENS + " (one of"
                + " them a prompt longer than the window, which a server refuses before any generation) and"
                + " GET /metrics, one after another. The verdict line is kept per target in"
                + " $XDG_CACHE_HOME/capstream/check (default ~/.cache/capstream/check) for 24 h; 'capstream run'"
                + " prints it before T0 and sends nothing for it.",
            "Only chat and completions (--endpoint) are checked. Secrets (the --api-key-env key, credential -H values,"
                + " URL user-info) are masked in all output. With no --base-url the built-in simulated engine is"
                + " checked; the --sim-* options of 'capstream sim --help' set its behaviours."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the endpoint can be measured by the protocol (it streams SSE with output deltas, to the end)",
            "1:it cannot (the reason is printed: e.g. a whole JSON body to a streaming request, a stream cut off"
                + " before [DONE], an HTTP error, no output delta, https to a plain-HTTP server), the first streamed request timed out, or no request"
                + " reaches it (refused, unknown host: 'run' and 'sweep' exit 2 there, having sent nothing)",
            "2:usage error (nothing was sent)"})
public final class CheckCommand implements Callable<Integer> {
    /** Longest {@code --timeout}, seconds. */
    static final int MAX_TIMEOUT_S = 600;

    @Mixin
    EndpointOptions endpoint = new EndpointOptions();

    @Mixin
    TlsOptions tls = new TlsOptions();

    @Option(names = "--json", description = "Print one JSON object (one top-level key per finding, each with verdict,"
            + " value and detail; plus target, measurable, reason and verdict) instead of the table.")
    boolean json;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "Bound of the whole check, e.g. 30s, 2m (a bare number is seconds; each exchange gets at most"
                    + " --exchange-timeout of it; a request whose turn comes later is not sent and its findings say"
                    + " so). 1s to " + MAX_TIMEOUT_S + "s. Default: 60s.")
    Duration timeout = Duration.ofSeconds(60);

    @Option(names = "--exchange-timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "Most time one exchange gets, e.g. 20s, 1.5m (a bare number is seconds; within --timeout):"
                    + " an endpoint whose first streamed request is not answered within it is reported as timed out;"
                    + " raise it for a slow endpoint (a long queue or prefill). 1s to " + MAX_TIMEOUT_S + "s."
                    + " Default: " + CheckProbe.EXCHANGE_MS / 1000 + "s.")
    Duration exchangeTimeout = Duration.ofMillis(CheckProbe.EXCHANGE_MS);

    @Mixin
    SimOptions sim = new SimOptions();

    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;

    /** The command on the process's streams and environment. */
    public CheckCommand() {
        this(System.out, System.err, System::getenv);
    }

    /**
     * @param out the table or JSON
     * @param err usage errors and progress
     * @param env environment lookup (the API key, {@code XDG_CACHE_HOME})
     */
    CheckCommand(PrintStream out, PrintStream err, Function<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    @Override
    public Integer call() throws Exception {
        String problem = usageProblem();
        if (problem != null) {
            err.println("capstream check: " + problem + "; nothing was sent");
            return 2;
        }
        ApiEndpoint api = endpoint.endpoint();
        List<ExtraHeader> headers = endpoint.headers();
        String url = endpoint.baseUrl();
        ApiKey key = endpoint.apiKeyEnv() != null ? ApiKey.fromEnv(endpoint.apiKeyEnv(), env)
                : url == null ? ApiKey.none() : ApiKey.basic(HttpUrls.userInfo(url));
        List<String> secrets = new ArrayList<>(key.secrets());
        secrets.addAll(RunSecrets.urlSecrets(url));
        headers.forEach(h -> secrets.addAll(h.secretValues()));
        SecretMask mask = SecretMask.of(secrets);
        TlsConfig tlsConfig = tls.toConfig();
        Vertx vertx = Vertx.vertx();
        SimEngine engine = null;
        try {
            if (url == null) {
                engine = SimEngine.start(vertx, sim.toConfig("127.0.0.1", 0)).toCompletionStage().toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
                url = engine.baseUrl();
            }
            String model = endpoint.model() != null ? endpoint.model() : sim.model();
            long startNs = System.nanoTime();
            if (engine == null) {
                // the transport and base-URL diagnoses of 'capstream run' (its endpoint check), word for word
                String fatal;
                try {
                    // bounded by --timeout, the bound of the whole check (it was a fixed 60 s)
                    fatal = EndpointPreflight.check(vertx, url, api, model, key, headers,
                            false, tlsConfig.clientTls()).toCompletionStage().toCompletableFuture()
                            .get(timeout.toMillis(), TimeUnit.MILLISECONDS).problem();
                } catch (java.util.concurrent.TimeoutException e) {
                    fatal = "no answer from " + Redaction.url(url) + " to the endpoint check (GET /models)"
                            + " within " + DurationConverter.secondsText(timeout) + " s (--timeout bounds the whole check)";
                }
                if (fatal != null) {
                    return unreachable(new CheckReport(shown(url), model, api.label(), List.of(),
                            false, fatal), mask);
                }
            }
            // what the endpoint check left of --timeout (at least 1 s)
            long leftMs = Math.max(1000L, timeout.toMillis() - (System.nanoTime() - startNs) / 1_000_000);
            ProbeTarget target = new ProbeTarget(HttpUrls.withoutUserInfo(url), model, api, key, headers,
                    tlsConfig.clientTls(), mask);
            String salt = HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
            Observations o;
            try (StreamProbe client = new StreamProbe(vertx, key, headers, tlsConfig.clientTls(), mask)) {
                o = CheckProbe.run(client, target, new ProbeBodies(model, api, salt), leftMs,
                        exchangeTimeout.toMillis(), () -> System.nanoTime() / 1_000_000);
            }
            CheckReport report = CheckReport.of(target, o).withBaseUrl(shown(url));
            CheckRenderer renderer = new CheckRenderer(mask);
            out.print(json ? renderer.json(report) : renderer.table(report));
            out.flush();
            if (engine == null) {
                CheckCache.standard(env).put(report, mask.apply(report.verdictLine()), Instant.now());
            }
            return report.measurable() ? 0 : 1;
        } finally {
            if (engine != null) {
                engine.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Reports an endpoint that no request can reach as {@code run} would (refused, TLS against plain HTTP or the
     * reverse, a base URL one {@code /v1} short): its one line on stdout (the JSON object with no findings with
     * {@code --json}), the verdict cached.
     *
     * @return 1
     */
    private int unreachable(CheckReport report, SecretMask mask) {
        out.print(json ? new CheckRenderer(mask).json(report) : mask.apply(report.verdictLine()) + "\n");
        out.flush();
        CheckCache.standard(env).put(report, mask.apply(report.verdictLine()), Instant.now());
        return 1;
    }

    /** @return the base URL as the console and the report show it: user-info masked ({@code ***@}), no trailing "/" */
    private static String shown(String url) {
        String s = Redaction.url(url);
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** @return the first usage problem, one line without secrets, or null */
    private String usageProblem() {
        String url;
        try {
            url = endpoint.baseUrl();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (url != null) {
            String p = HttpUrls.problem(url);
            if (p != null) {
                return "--base-url " + p;
            }
            if (endpoint.model() == null || endpoint.model().isBlank()) {
                return "--model is required with --base-url";
            }
        }
        String range = DurationConverter.rangeProblem("--timeout", timeout, 1, MAX_TIMEOUT_S);
        if (range == null) {
            range = DurationConverter.rangeProblem("--exchange-timeout", exchangeTimeout, 1, MAX_TIMEOUT_S);
        }
        if (range != null) {
            return range;
        }
        try {
            ApiEndpoint api = endpoint.endpoint();
            if (api != ApiEndpoint.CHAT && api != ApiEndpoint.COMPLETIONS) {
                return "--endpoint " + api.label() + " is not checked (only chat and completions)";
            }
            String apiPath = url == null ? null : TargetConfig.apiPathProblem(url, api);
            if (apiPath != null) {
                return apiPath;
            }
            List<ExtraHeader> headers = endpoint.headers();
            if (endpoint.apiKeyEnv() != null) {
                ApiKey.fromEnv(endpoint.apiKeyEnv(), env);
                if (headers.stream().anyMatch(ExtraHeader::isAuthorization)) {
                    return "-H Authorization cannot be combined with --api-key-env";
                }
            }
            if (url != null && endpoint.apiKeyEnv() != null && HttpUrls.userInfo(url) != null) {
                return "--api-key-env cannot be combined with credentials in --base-url";
            }
            if (url != null && HttpUrls.userInfo(url) != null
                    && headers.stream().anyMatch(ExtraHeader::isAuthorization)) {
                // as run (TargetConfig): two Authorization headers, and which one the server would see is a guess
                return "-H Authorization and user:password@ in --base-url both set the Authorization header; give one";
            }
            String tlsProblem = tls.toConfig().problem();
            if (tlsProblem != null) {
                return tlsProblem;
            }
            sim.toConfig("127.0.0.1", 0);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return null;
    }
}
