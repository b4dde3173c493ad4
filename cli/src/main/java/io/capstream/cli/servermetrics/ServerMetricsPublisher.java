package io.capstream.cli.servermetrics;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.loadgen.servermetrics.SeriesInfo;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.loadgen.servermetrics.ServerScrape;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.ServerMetricsScrape;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import io.capstream.schemas.text.SecretMask;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends a run's server-metrics scrapes to {@link Topics#SERVER_METRICS} (one {@link ServerMetricsScrape}
 * per scrape, key = target) after the run, as the run's events are (nothing reaches the broker while the
 * requests are in flight). The run's secrets are masked in every record and key as in its events: the target is the
 * events' (user-info masked), so that the scrapes and the windows of its requests key on the same target. Not
 * thread-safe; one call per run.
 */
public final class ServerMetricsPublisher {
    private static final long SEND_TIMEOUT_S = 30;

    private ServerMetricsPublisher() {
    }

    /**
     * @param kafka       client settings with the bootstrap servers set; not null
     * @param registryUrl registry URL of the serde; not null
     * @param registry    registry client settings; not null
     * @param recording   what was scraped; not null
     * @param runId       the run id
     * @param workerId    the generator's worker id
     * @param target      the run's base URL (the key)
     * @param model       the run's model, or null
     * @param mask        the run's secrets ({@link io.capstream.loadgen.run.RunSecrets}); not null
     * @return null when every scrape was acknowledged, else why not (one line)
     * @throws InterruptedException when interrupted
     */
    public static String publish(KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registry,
                                 ServerMetricsRecording recording, String runId, String workerId, String target,
                                 String model, SecretMask mask) throws InterruptedException {
        String key = mask.apply(target);
        List<ServerMetricsScrape> records = records(recording, runId, workerId, key, model).stream()
                .map(mask::apply).toList();
        if (records.isEmpty()) {
            return null;
        }
        try (Producer<String, ServerMetricsScrape> p = new KafkaProducer<>(kafka.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 20)), new StringSerializer(),
                SpecificAvroSerde.forValue(ServerMetricsScrape.class, registryUrl, registry).serializer())) {
            List<Future<?>> sent = new ArrayList<>(records.size());
            for (ServerMetricsScrape r : records) {
                sent.add(p.send(new ProducerRecord<>(Topics.SERVER_METRICS, key, r)));
            }
            for (Future<?> f : sent) {
                f.get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
            }
            return null;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            return "cannot write the server metrics to " + Topics.SERVER_METRICS + ": " + mask.apply(c.getMessage());
        }
    }

    /**
     * @return one record per scrape of the recording, with the series present in it
     */
    static List<ServerMetricsScrape> records(ServerMetricsRecording recording, String runId, String workerId,
                                             String target, String model) {
        List<SeriesInfo> series = recording.series();
        List<ServerMetricsScrape> out = new ArrayList<>(recording.scrapes().size());
        for (ServerScrape s : recording.scrapes()) {
            Map<String, Double> samples = new LinkedHashMap<>();
            for (int i = 0; i < series.size(); i++) {
                double v = s.value(i);
                if (!Double.isNaN(v)) {
                    samples.put(series.get(i).name(), v);
                }
            }
            out.add(ServerMetricsScrape.newBuilder().setRunId(runId).setWorkerId(workerId).setTarget(target)
                    .setModel(model).setUrl(recording.url()).setScrapedAtEpochMs(s.epochMs()).setTMs(s.tMs())
                    .setScrapeMs(s.scrapeMs()).setSamples(samples).build());
        }
        return out;
    }
}
