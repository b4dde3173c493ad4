package io.capstream.cli.commands;

import io.capstream.cli.distributed.ControlTopic;
import io.capstream.cli.distributed.PlanTopic;
import io.capstream.cli.distributed.ShareRunner;
import io.capstream.cli.distributed.WorkerService;
import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.runner.BoundedStop;
import io.capstream.cli.runner.RunDriver;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstream worker}: a long-running load generator that executes its share of every distributed
 * run ({@code capstream run --workers N}) published on the Kafka it is given (see {@link WorkerService}).
 * Stops on Ctrl-C/SIGTERM after the shares in progress end.
 */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs as one of the N load generators of distributed runs ('capstream run --workers N' or"
                + " 'generate --workers N' with the same --bootstrap-servers), until Ctrl-C.",
            "Joins the consumer group " + WorkerService.GROUP + " on the plan topics " + PlanTopic.PREFIX + "<run id>"
                + " (one partition per worker: Kafka's RangeAssignor gives each worker one share of each run), estimates"
                + " its clock offset to the broker over " + ControlTopic.NAME + ", and sends request indices i with"
                + " i %% N == its share, from the run's shared start instant, with its part of the concurrency (closed"
                + " loop) or at the global schedule's times (open loop). Its events go to capstream.events with its"
                + " --worker-id. Start N workers before the run: a share is taken at most once, so a worker that dies"
                + " mid-run leaves its requests missing and the report is published incomplete (missing indices) after"
                + " the aggregator's incompleteness deadline.",
            "Every worker must reach Kafka, the schema registry and the target (--base-url of the run); the API key is"
                + " read from the run's --api-key-env variable on each worker."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:Kafka or the registry do not answer, or the control topic cannot be set up", "2:usage error",
            "130:stopped by Ctrl-C (SIGINT), after the shares in progress ended (each asked to stop, at most 60 s)",
            "143:stopped by SIGTERM, likewise"})
public final class WorkerCommand implements Callable<Integer> {
    /**
     * Why a worker needs the schema registry its coordinator and the aggregator use (its {@code --help} says so,
     * {@code RequiredKafkaHelp}): the plans it reads and the events it writes carry only their schema's id.
     */
    public static final String REGISTRY_NEEDED = "the plans it reads and the events it writes are Avro records that"
            + " carry only their schema's id, which the registry of the coordinator and the aggregator resolves";

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--worker-id", paramLabel = "ID",
            description = "This worker's id (worker_id of its events; unique among the workers). Default: <host>-<pid>.")
    String workerId;

    /** Where the worker logs; null: {@code System.err} when it starts (tests give each worker its own). */
    PrintStream log;
    /** The worker's environment (the API key variable); tests give one without a variable the run needs. */
    java.util.function.Function<String, String> env = System::getenv;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile WorkerService service;

    @Override
    public Integer call() throws Exception {
        try {
            return serve();
        } finally {
            started.countDown(); // also when it ended before serving: stop() must not wait then
        }
    }

    private int serve() throws Exception {
        String cmd = "capstream worker";
        PrintStream log = this.log == null ? System.err : this.log;
        if (kafka.bootstrapServers() == null || kafka.schemaRegistryUrl() == null) {
            log.println(cmd + ": --bootstrap-servers and --schema-registry-url are required");
            return 2;
        }
        String id = workerId == null ? defaultId() : workerId.strip();
        if (id.isEmpty()) {
            log.println(cmd + ": --worker-id must not be blank");
            return 2;
        }
        String bad = controlCharacter(id);
        if (bad != null) {
            log.println(cmd + ": --worker-id must not contain control characters (" + bad + "); it names the worker's"
                    + " events and lines");
            return 2;
        }
        KafkaClientProperties props = kafka.clientProperties();
        RegistryClientConfig rc = kafka.registryClientConfig();
        String unreachable = ConnectionChecks.kafkaThenRegistry(props, kafka.schemaRegistryUrl(), rc);
        if (unreachable != null) {
            log.println(cmd + ": " + unreachable);
            return 1;
        }
        Vertx vertx = io.capstream.loadgen.client.TimedTransport.vertx( // stamped connections (issue 30)
                new VertxOptions().setBlockedThreadCheckInterval(10_000).setPreferNativeTransport(true));
        WorkerService s = new WorkerService(props, kafka.schemaRegistryUrl(), rc, id,
                new ShareRunner(vertx, props, kafka.schemaRegistryUrl(), rc, env, log), log);
        service = s;
        started.countDown();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = RunDriver.addStopHook("capstream-worker-shutdown", new BoundedStop(cmd, s::stop, finished,
                java.time.Duration.ofSeconds(70), BoundedStop.LATCH, log,
                () -> "the events of its shares' requests in flight are not sent"));
        try {
            s.run();
            return 0;
        } catch (IllegalStateException e) {
            log.println(cmd + ": " + e.getMessage());
            return 1;
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
            finished.countDown();
            RunDriver.removeStopHook(hook);
        }
    }

    /** Stops a running {@link #call()} (tests; Ctrl-C does the same through the shutdown hook). */
    void stop() throws InterruptedException {
        started.await(30, TimeUnit.SECONDS);
        WorkerService s = service;
        if (s != null) {
            s.stop();
        }
    }

    /**
     * @param id a worker id; not null
     * @return the first control or format character of {@code id} and its position (e.g. {@code "U+0007 at
     *         position 3"}), or null when there is none
     */
    static String controlCharacter(String id) {
        for (int i = 0; i < id.length(); ) {
            int cp = id.codePointAt(i);
            int type = Character.getType(cp);
            if (Character.isISOControl(cp) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                return String.format("U+%04X at position %d", cp, id.codePointCount(0, i) + 1);
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    private static String defaultId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "worker";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
