package io.capstream.cli.commands;

import io.capstream.aggregator.AggregatorConfig;
import io.capstream.aggregator.AggregatorService;
import io.capstream.aggregator.api.AdvertisedUrl;
import io.capstream.aggregator.api.ApiConfig;
import io.capstream.aggregator.otlp.OtlpConfig;
import io.capstream.aggregator.otlp.OtlpConfigException;
import io.capstream.aggregator.otlp.OtlpExport;
import io.capstream.aggregator.runtime.StaticMembership;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloParseException;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.aggregator.slo.SloTopologyConfig;
import io.capstream.aggregator.window.WindowTopologyConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.KafkaReachability;
import io.capstream.cli.options.KafkaWait;
import io.capstream.cli.options.StartupAdmin;
import io.capstream.cli.options.OtlpOptions;
import io.capstream.cli.options.SloAlertOptions;
import io.capstream.cli.options.StreamsStateDirs;
import io.capstream.cli.runner.BoundedStop;
import io.capstream.cli.up.PortHolder;
import io.capstream.cli.up.Ports;
import io.capstream.schemas.text.DurationLabel;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstream aggregate}: the long-running aggregator service. One Kafka Streams application
 * turns {@code capstream.events} into run reports ({@code capstream.reports}), windowed summaries
 * ({@code capstream.summaries}) and SLO alerts ({@code capstream.alerts}), and serves the HTTP API
 * and Prometheus metrics. Runs until Ctrl-C / SIGTERM, then closes Streams cleanly. Several instances
 * with the same {@code --application-id} share the partitions and answer the API for each other
 * ({@code --advertised-url}).
 * Exit codes: 1 the application failed; 2 usage error; stopped by SIGINT / SIGTERM the JVM exits
 * 130 / 143 (128 + the signal number) once the shutdown hook has closed Streams, or after {@link #STOP_BOUND} with one
 * line saying what was not committed (a broker that has gone).
 */
@Command(name = "aggregate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the aggregator service until stopped: run reports, windowed p50/p95/p99 summaries,"
                + " SLO alerts, and an HTTP API (/api/runs, /api/runs/{id}, /api/summaries, /api/alerts, /metrics,"
                + " /health, /ready). Requires --bootstrap-servers and --schema-registry-url.",
            "Run several instances with the same --application-id (each with its own --state-dir and an"
                + " --advertised-url the others can reach) to share the load; any of them answers for every run"
                + " and window. /metrics, /health and /ready are per instance."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:the aggregator failed",
            "2:usage error (e.g. --http-port in use; the process holding it is named)",
            "130:stopped by Ctrl-C (SIGINT), after Kafka Streams closed", "143:stopped by SIGTERM, likewise"})
public final class AggregateCommand implements Callable<Integer> {
    /**
     * Why aggregate needs the schema registry the generators wrote with (its {@code --help} says so,
     * {@code RequiredKafkaHelp}): each event holds only its schema's id, which that registry resolves.
     */
    public static final String REGISTRY_NEEDED = "the events are Avro records that carry only their schema's id,"
            + " which the registry the generators wrote them with resolves";

    /** How long SIGINT/SIGTERM waits for the close (API, Kafka Streams' last commit, the last OTLP export). */
    static final Duration STOP_BOUND = Duration.ofSeconds(12);
    /** How long the start waits for the events topic's partition count (as AggregatorService's own ask). */
    private static final Duration INPUT_PARTITIONS_TIMEOUT = Duration.ofSeconds(15);

    @Option(names = "--http-port", paramLabel = "PORT", description = "HTTP API port (0 = any free port). Default: ${DEFAULT-VALUE}.")
    int httpPort = ApiConfig.DEFAULT_PORT;

    @Option(names = "--http-host", paramLabel = "ADDRESS",
            description = "Address the HTTP API binds to. Default: ${DEFAULT-VALUE} (this machine only).")
    String httpHost = ApiConfig.DEFAULT_HOST;

    @Option(names = "--advertised-url", paramLabel = "URL",
            description = "The address other 'aggregate' instances with the same --application-id reach this one's HTTP"
                    + " API under, http://HOST:PORT (Kafka Streams application.server). Several instances share the"
                    + " partitions; each answers /api/runs/{id} by forwarding to the instance holding the run's report"
                    + " and merges /api/runs, /api/summaries, /api/alerts from all of them (503 naming an instance that"
                    + " does not answer). Default: the --http-host address and the API's port; with a wildcard"
                    + " --http-host (0.0.0.0) this machine's host name. Env CAPSTREAM_ADVERTISED_URL.")
    String advertisedUrl;

    @Option(names = "--window", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Tumbling window size of the summaries, e.g. 1m, 30s. Default: 1m.")
    Duration window = Duration.ofMinutes(1);

    @Option(names = "--grace", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How far out of time order a request may arrive within its own capstream.events partition"
                    + " and still be in its window's summary when the window closes (once every partition is past"
                    + " its end plus the grace); later requests are merged into an update of the summary for 6 h."
                    + " Default: 10s.")
    Duration grace = Duration.ofSeconds(10);

    @Option(names = "--incomplete-deadline", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "A run with no new event for this long (e.g. its worker died) is published as an incomplete"
                    + " report listing its missing request indices, e.g. 5m, 30s. Default: 5m.")
    Duration incompleteDeadline = io.capstream.aggregator.report.ReportTopologyConfig.DEFAULT_DEADLINE;

    @Option(names = "--slo", paramLabel = "SLO",
            description = "Service-level objective, repeatable, e.g. 'ttft_p95_ms<=500', 'error_rate<=0.01'. Metrics: "
                    + SloParser.METRICS_HELP + ". Breaches and recoveries go to capstream.alerts; goodput is added to"
                    + " each summary.")
    List<String> slos = new ArrayList<>();

    @Mixin
    SloAlertOptions sloAlerts = new SloAlertOptions();

    @Option(names = "--application-id", paramLabel = "ID",
            description = "Kafka Streams application id (consumer group, state). Default: ${DEFAULT-VALUE}.")
    String applicationId = AggregatorGroupOption.DEFAULT_GROUP;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Kafka Streams state directory; the application's state goes to DIR/<application id>. State"
                    + " without a valid checkpoint (e.g. a killed process's) is wiped and restored from the changelog"
                    + " topics; one WARN line says so. It also keeps the instance's id in its consumer group (static"
                    + " membership): started again on the same DIR after a crash, it takes its old place at once."
                    + " Default: capstream's own, " + StreamsStateDirs.HELP + ", not Kafka Streams' /tmp/kafka-streams,"
                    + " which other programs share.")
    Path stateDir;

    @Option(names = "--stream-threads", paramLabel = "N",
            description = "Kafka Streams threads (each takes a share of the partitions of capstream.events)."
                    + " Default: one per core, at most 4 (here ${DEFAULT-VALUE}).")
    int streamThreads = StreamsSettings.defaultStreamThreads();

    @Option(names = "--kafka-wait", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long to wait at start for Kafka to answer (a broker still starting, a loaded machine),"
                    + " with a line every 10 s while waiting; then exit 1 with one line. Default: 60s.")
    Duration kafkaWait = Duration.ofSeconds(60);

    @Mixin
    OtlpOptions otlp = new OtlpOptions();

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    private final PrintStream out;
    private final PrintStream err;
    /** The process environment: the OTEL_* variables that turn the OTLP export on. */
    Map<String, String> env = System.getenv();

    /** Prints to the standard streams. */
    public AggregateCommand() {
        this(System.out, System.err);
    }

    /**
     * @param out where the banner goes
     * @param err where errors go
     */
    public AggregateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
        List<String> problems = new ArrayList<>();
        if (kafka.bootstrapServers() == null) {
            problems.add("--bootstrap-servers is required (start a broker with 'capstream up')");
        }
        if (kafka.schemaRegistryUrl() == null) {
            problems.add("--schema-registry-url is required (the registry the generators write with)");
        }
        if (window.isZero() || window.isNegative()) {
            problems.add("--window must be > 0");
        }
        if (grace.isNegative()) {
            problems.add("--grace must be >= 0");
        }
        if (incompleteDeadline.isZero() || incompleteDeadline.isNegative()) {
            problems.add("--incomplete-deadline must be > 0");
        }
        if (kafkaWait.isZero() || kafkaWait.isNegative()) {
            problems.add("--kafka-wait must be > 0");
        }
        if (streamThreads < 1) {
            problems.add("--stream-threads must be >= 1, got " + streamThreads);
        }
        if (httpPort < 0 || httpPort > 65535) {
            problems.add("--http-port must be in 0..65535 (0 = any free port), got " + httpPort);
        }
        AdvertisedUrl advertised = null;
        if (advertisedUrl != null) {
            try {
                advertised = AdvertisedUrl.parse(advertisedUrl);
            } catch (IllegalArgumentException e) {
                problems.add("--advertised-url: " + e.getMessage());
            }
        }
        List<Slo> parsed = List.of();
        try {
            parsed = SloParser.parseAll(slos);
        } catch (SloParseException e) {
            problems.add("--slo: " + e.getMessage());
        }
        OtlpConfig otlpConfig = otlp.resolve(env, problems);
        sloAlerts.apply(SloTopologyConfig.defaults(parsed, "unchecked"), problems);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("capstream aggregate: " + p));
            return 2;
        }
        if (httpPort != 0 && !Ports.isFree(httpHost, httpPort)) {
            // before Kafka Streams starts: a usage error naming who holds the port, as 'up' does
            err.println("capstream aggregate: " + httpPortInUse(httpHost, httpPort,
                    PortHolder.find(httpPort).orElse(null)));
            return 2;
        }
        KafkaClientProperties props = kafka.clientProperties();
        AggregatorConfig base = AggregatorConfig.of(kafka.schemaRegistryUrl(), kafka.registryClientConfig(), window,
                grace, parsed);
        String eventsTopic = base.report().eventsSource().eventsTopic();
        int eventPartitions;
        // one Admin client for the reachability wait, the topics and the partition count (issue 31: start-up)
        try (StartupAdmin admin = new StartupAdmin(props)) {
            String unreachable = new KafkaWait(admin::probe, System::nanoTime, err, "capstream aggregate")
                    .await(props.bootstrapServers(), kafkaWait, "--kafka-wait");
            if (unreachable != null) {
                err.println("capstream aggregate: " + unreachable);
                return 1;
            }
            try {
                admin.ensureTopics(TopicSetup.DEFAULT_EVENT_PARTITIONS);
            } catch (RuntimeException e) {
                err.println("capstream aggregate: " + KafkaReachability.message(props.bootstrapServers(), e.getMessage()));
                return 1;
            }
            // 0 when it cannot be told: AggregatorService then asks again (and warns)
            eventPartitions = admin.partitions(eventsTopic, INPUT_PARTITIONS_TIMEOUT);
        }
        WindowTopologyConfig windowConfig = eventPartitions > 0
                ? base.window().withInput(eventPartitions, base.window().sourceIdle()) : base.window();
        AggregatorConfig config = new AggregatorConfig(base.report().withIncompleteDeadline(incompleteDeadline),
                windowConfig, sloAlerts.apply(base.slo(), new ArrayList<>()));
        Path stateBase = stateDir != null ? stateDir : StreamsStateDirs.defaultDir();
        // static group membership kept in the state directory (a restart after a crash takes its old place at once),
        // then the user's properties, which win
        Map<String, String> extra = new LinkedHashMap<>(
                StaticMembership.properties(stateBase, applicationId, props.userProperties()));
        extra.putAll(props.userProperties());
        StreamsSettings settings = StreamsSettings.defaults(applicationId, props.bootstrapServers(), stateBase)
                .withStreamThreads(streamThreads).withExtra(extra);
        AggregatorService service;
        try {
            service = AggregatorService.start(config, settings, new ApiConfig(httpHost, httpPort, advertised),
                    otlpConfig);
        } catch (OtlpConfigException e) {
            err.println("capstream aggregate: OTLP export: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            err.println("capstream aggregate: " + e.getMessage());
            return 1;
        }
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(closeOnSignal(service::close, service::unfinishedClose, closed, err,
                BoundedStop.LATCH), "capstream-aggregate-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println(runningLine(window, grace, parsed.size(), httpHost, service.httpPort()));
        if (!parsed.isEmpty()) {
            out.println("capstream aggregate: " + SloAlertOptions.banner(config.slo()));
        }
        out.println("capstream aggregate: live dashboard on " + dashboardUrl(httpHost, service.httpPort()));
        out.println(advertisedLine(applicationId, service.advertisedUrl(), advertised != null));
        out.println("capstream aggregate: local state in " + stateBase.resolve(applicationId) + " (--state-dir)");
        if (service.otlpExport() != null) {
            out.println(otlpLine(service.otlpExport(), otlpConfig));
        }
        out.flush();
        boolean failedByItself = service.awaitStopped(Duration.ofDays(365 * 100L));
        if (closed.getCount() > 0) {
            // stopped by itself (error), not by the shutdown hook
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                closed.await();
                return 0;
            }
            service.close();
            err.println("capstream aggregate: Kafka Streams stopped (state " + service.state() + "); see the log");
            return failedByItself ? 1 : 0;
        }
        return 0;
    }

    /**
     * @param window the --window size and {@code grace} the --grace (spelled e.g. 1m, 10s, 500ms)
     * @param slos   how many --slo were given; {@code host} and {@code port}: where the HTTP API listens
     * @return the first banner line, durations spelled as the options take them ({@code window 1m, grace 10s})
     */
    static String runningLine(Duration window, Duration grace, int slos, String host, int port) {
        return String.format("capstream aggregate: running (window %s, grace %s, %d SLO%s); HTTP API on http://%s:%d"
                + " (/api/runs, /api/summaries, /api/alerts, /metrics). Ctrl-C to stop.", DurationLabel.of(window),
                DurationLabel.of(grace), slos, slos == 1 ? "" : "s", host, port);
    }

    /**
     * @param host   the --http-host address
     * @param port   the --http-port port, in use
     * @param holder the process found listening on it ({@link PortHolder}), or null when unknown
     * @return the one-line usage error: the port, who holds it when known, what to do
     */
    static String httpPortInUse(String host, int port, PortHolder.Holder holder) {
        return "port " + port + " on " + host + " is already in use, so the HTTP API cannot listen on it"
                + (holder == null ? " (is another capstream aggregate running?)." : "." + PortHolder.describe(holder))
                + " Stop that process or choose another port with --http-port PORT (0 = any free port).";
    }

    /**
     * The shutdown hook's work: closes the service on a thread of its own and waits for it at most {@link #STOP_BOUND};
     * past it (a broker that has gone holds Kafka Streams' commit), prints one line saying what was not committed or
     * flushed, and returns, so that the JVM exits. A close that finished but not cleanly (Kafka Streams' own close
     * bound ran out) prints such a line too.
     *
     * @param close      closes the service
     * @param unfinished what a close still in progress has not done (null when nothing)
     * @param closed     counted down once the close has finished
     * @param err        where the line goes
     * @param waiter     how to wait ({@link BoundedStop#LATCH}; tests inject their own)
     * @return the hook's body
     */
    static BoundedStop closeOnSignal(Runnable close, Supplier<String> unfinished, CountDownLatch closed, PrintStream err,
                                     BoundedStop.Waiter waiter) {
        AtomicBoolean said = new AtomicBoolean();
        Supplier<String> sayOnce = () -> said.compareAndSet(false, true) ? unfinished.get() : null;
        Runnable startClose = () -> {
            Thread closer = new Thread(() -> {
                try {
                    close.run();
                    String left = sayOnce.get();
                    if (left != null) {
                        err.println("capstream aggregate: stopped without a clean close: " + left);
                        err.flush();
                    }
                } finally {
                    closed.countDown();
                }
            }, "capstream-aggregate-close");
            closer.setDaemon(true);
            closer.start();
        };
        return new BoundedStop("capstream aggregate", startClose, closed, STOP_BOUND, waiter, err,
                sayOnce);
    }

    /**
     * @param export the running export
     * @param config its settings
     * @return the banner line saying where the OTLP export goes (header values masked)
     */
    static String otlpLine(OtlpExport export, OtlpConfig config) {
        if (export.destination() == null) {
            return "capstream aggregate: OTLP export off (OTEL_SDK_DISABLED)";
        }
        return "capstream aggregate: OTLP/HTTP metrics to " + export.destination().describe() + " (names "
                + config.names() + ", gen_ai.provider.name " + config.providerName() + ", cumulative)";
    }

    /**
     * @param applicationId the Streams application id
     * @param url           the advertised address
     * @param explicit      whether it was given with --advertised-url
     * @return the banner line naming the address other instances forward queries to
     */
    static String advertisedLine(String applicationId, AdvertisedUrl url, boolean explicit) {
        String host = url.host();
        boolean loopback = host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
        return "capstream aggregate: application id " + applicationId + "; other instances of it reach this one at " + url
                + (loopback ? " (loopback: only instances on this machine can; see --advertised-url)"
                : explicit ? "" : " (set --advertised-url if they cannot)");
    }

    /**
     * @param host the address the HTTP API binds to; a wildcard address (0.0.0.0, ::) becomes 127.0.0.1
     * @param port the port it listens on
     * @return the live dashboard's URL, e.g. {@code http://127.0.0.1:8088/} (IPv6 literals in brackets)
     */
    static String dashboardUrl(String host, int port) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.isBlank() || "0.0.0.0".equals(h) || "::".equals(h) || "0:0:0:0:0:0:0:0".equals(h)) {
            h = ApiConfig.DEFAULT_HOST;
        }
        return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + port + "/";
    }
}
