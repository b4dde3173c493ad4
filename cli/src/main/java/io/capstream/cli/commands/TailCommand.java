package io.capstream.cli.commands;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.config.Secrets;
import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.KafkaReachability;
import io.capstream.cli.tail.TailFormat;
import io.capstream.cli.tail.TailKind;
import io.capstream.cli.tail.TailNotice;
import io.capstream.cli.tail.TailPrinter;
import io.capstream.cli.tail.TopicTailer;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code capstream tail reports|summaries|alerts|changes|sweeps|server-metrics}: prints the records of a capstream output topic
 * as a table or JSON, with a plain Kafka consumer (no consumer group, read_committed) and the
 * Confluent-format Avro deserializer; exits once caught up unless {@code --follow}. stdout carries the records only;
 * stderr the errors and the {@link TailNotice} lines (what a follow waits for, as soon as it is subscribed; that a tail
 * found no record; each record skipped because it could not be decoded, e.g. written with another registry). Exit codes: 0 ok; 1 Kafka or registry error; 2 usage error.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints the records of capstream.reports, capstream.summaries, capstream.alerts, capstream.changes,"
                + " capstream.sweeps or"
                + " capstream.server-metrics as a table"
                + " or JSON. Without --follow: prints what the topic holds (or, with --since, its recent part) and"
                + " exits. With --follow: prints new records as they arrive until Ctrl-C (add --from-beginning or"
                + " --since to print older ones first).",
            "Needs --bootstrap-servers and --schema-registry-url (the registry the records were written with, e.g."
                + " the one `capstream up` prints) for every topic."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok (caught up, without --follow)", "1:Kafka or schema registry error", "2:usage error",
            "130:stopped by Ctrl-C (SIGINT)", "143:stopped by SIGTERM"})
public final class TailCommand implements Callable<Integer> {
    /**
     * Why every topic tail reads needs the schema registry the records were written with (its help and its usage
     * error say so): each record holds only its schema's id, which a registry must resolve.
     */
    public static final String REGISTRY_NEEDED = "every topic holds Avro records that carry only their schema's id,"
            + " which the registry they were written with resolves";
    /** Now, for {@code --since} (tests set their own). */
    CapClock clock = CapClock.system();
    /** Whether a broker answers: null, or the one-line error naming the bootstrap servers (tests set their own). */
    Function<KafkaClientProperties, String> kafkaCheck = KafkaReachability::check;
    /** The consumer of the topic read (tests set their own). */
    BiFunction<KafkaClientProperties, TailKind, Consumer<String, SpecificRecord>> consumers = this::consumer;
    @Parameters(index = "0", paramLabel = "reports|summaries|alerts|changes|sweeps|server-metrics",
            description = "Which topic to read.")
    String what;

    @Option(names = "--format", paramLabel = "table|json|jsonl",
            description = "Output format: a readable table, pretty JSON, or one JSON object per line. Default: table.")
    String format = "table";

    @Option(names = {"-f", "--follow"}, description = "Keep reading new records until Ctrl-C.")
    boolean follow;

    @Option(names = "--from-beginning", description = "Start at the earliest record.")
    boolean fromBeginning;

    @Option(names = "--since", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Start at records written in the last DURATION, e.g. 15m, 1h, 2d.")
    Duration since;

    @Option(names = "--target", paramLabel = "URL", description = "Only records of this target (base URL), exact match.")
    String target;

    @Option(names = "--model", paramLabel = "MODEL", description = "Only records of this model, exact match.")
    String model;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    private final PrintStream out;
    private final PrintStream err;

    /** Prints to the standard streams. */
    public TailCommand() {
        this(System.out, System.err);
    }

    /**
     * @param out records
     * @param err errors
     */
    public TailCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        TailKind kind = null;
        try {
            kind = TailKind.parse(what);
        } catch (IllegalArgumentException e) {
            problems.add("unknown topic '" + what + "': expected reports, summaries, alerts, changes, sweeps or server-metrics");
        }
        TailFormat fmt = null;
        try {
            fmt = TailFormat.valueOf(format.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problems.add("unknown --format '" + format + "': expected table, json or jsonl");
        }
        if (fromBeginning && since != null) {
            problems.add("give either --from-beginning or --since, not both");
        }
        if (kafka.bootstrapServers() == null) {
            problems.add("--bootstrap-servers is required");
        }
        if (kafka.schemaRegistryUrl() == null) {
            problems.add("--schema-registry-url is required: " + REGISTRY_NEEDED);
        } else if (kafka.schemaRegistryUrl().startsWith(SchemaRegistryClients.MOCK_PREFIX)) {
            // an in-memory registry of this process holds no writer's schema: every record would fail to decode
            problems.add("--schema-registry-url " + Secrets.redactUrls(kafka.schemaRegistryUrl()) + " is an in-memory"
                    + " registry of this process, which holds no schema of the records; give the registry they were"
                    + " written with");
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("capstream tail: " + p));
            return 2;
        }
        TopicTailer.Start start = fromBeginning ? TopicTailer.Start.BEGINNING
                : since != null ? TopicTailer.Start.TIME
                : follow ? TopicTailer.Start.END : TopicTailer.Start.BEGINNING;
        long sinceMs = since == null ? 0 : clock.millis() - since.toMillis();
        TailKind k = kind;
        Predicate<SpecificRecord> filter = r -> (target == null || target.equals(k.target(r)))
                && (model == null || model.equals(k.model(r)));
        TailPrinter printer = new TailPrinter(kind, fmt, out);
        KafkaClientProperties props = kafka.clientProperties();
        // Kafka first (the topic tail reads), naming the bootstrap servers, then the registry: without it every record
        // fails to decode with Kafka's "Error deserializing VALUE ... seek past the record" instead of a one-line reason
        String unreachable = ConnectionChecks.kafkaThenRegistry(() -> kafkaCheck.apply(props),
                kafka.schemaRegistryUrl(), kafka.registryClientConfig());
        if (unreachable != null) {
            err.println("capstream tail: " + unreachable);
            return 1;
        }
        CountDownLatch done = new CountDownLatch(1);
        int[] partitions = {0};
        String servers = Secrets.redactUrls(kafka.bootstrapServers());
        try (TopicTailer tailer = new TopicTailer(consumers.apply(props, kind), kind.topic())) {
            Thread hook = new Thread(() -> {
                tailer.stop();
                try {
                    done.await(5, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "capstream-tail-shutdown");
            if (follow) {
                Runtime.getRuntime().addShutdownHook(hook);
            }
            // stderr, so that stdout carries the records only: a follow says at once what it waits for (a summary
            // comes minutes later), a tail that printed nothing says so
            long printed = tailer.run(start, sinceMs, follow, filter, printer::print, e -> {
                err.println(TailNotice.skipped(e)); // e.g. written with another registry: the records after it print
                err.flush();
            }, n -> {
                partitions[0] = n;
                if (follow) {
                    err.println(TailNotice.following(k, start, sinceMs, n, servers));
                    err.flush();
                }
            });
            printer.finish(); // the [n<M] key under the table, as under the run's summary
            if (printed == 0 && !follow) {
                err.println(TailNotice.nothing(k, start, sinceMs, partitions[0], servers,
                        target != null || model != null, tailer.skipped()));
            }
            if (follow) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down
                }
            }
            return 0;
        } catch (RuntimeException e) {
            // a registry that did not answer while decoding: its own message, not Kafka's "seek past the record"
            SchemaRegistryUnavailableException down = SchemaRegistryUnavailableException.in(e);
            err.println("capstream tail: " + (down != null ? down.getMessage() : e.getMessage()));
            return 1;
        } finally {
            done.countDown();
        }
    }

    @SuppressWarnings("unchecked")
    private Consumer<String, SpecificRecord> consumer(KafkaClientProperties props, TailKind kind) {
        SpecificAvroSerde<SpecificRecord> serde = new SpecificAvroSerde<>((Class<SpecificRecord>) kind.type());
        serde.withClient(SchemaRegistryClients.forUrl(kafka.schemaRegistryUrl(), kafka.registryClientConfig()), false);
        Deserializer<SpecificRecord> value = serde.deserializer();
        Map<String, Object> config = props.consumer(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG, "capstream-tail"));
        return new KafkaConsumer<>(config, new StringDeserializer(), value);
    }
}
