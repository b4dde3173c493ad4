package io.capstream.cli.stack;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.schemas.registry.SchemaRegistryClients;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Whether a command on a shared Kafka ({@code run}, {@code import}, {@code replay}) aggregates its
 * events in its own process or leaves that to a running {@code capstream aggregate} service, so that
 * each report is published once. The service is used when its group has active members and it can
 * decode the command's events: events encoded with an in-process {@code mock://} registry can only be
 * read in the process that wrote them, so with one the command aggregates itself.
 *
 * @param useRunning true: start no report topology and wait for the service's report
 * @param group      the service's application id (consumer group) that was looked for; not null
 * @param line       what was decided, one line without a command prefix, e.g.
 *                   {@code using the running aggregator (group capstream-aggregator)}; not null
 */
public record AggregatorChoice(boolean useRunning, String group, String line) {
    /** How long Kafka may take to describe the service's group. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    /** Checks the components. */
    public AggregatorChoice {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(line, "line");
    }

    /**
     * Looks for the service's group on the cluster. Never throws: when Kafka cannot tell, the
     * command aggregates itself (a report published twice is better than none).
     *
     * @param kafka       client settings of the shared cluster; not null
     * @param group       the service's application id; not null
     * @param registryUrl the registry the command encodes its events with; not null
     * @param timeout     bound of the lookup; positive
     * @return the choice
     */
    public static AggregatorChoice probe(KafkaClientProperties kafka, String group, String registryUrl,
                                         Duration timeout) {
        try {
            return of(group, registryUrl, AggregatorPresence.activeMembers(kafka, group, timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unknown(group, "interrupted");
        } catch (TimeoutException e) {
            return unknown(group, "no answer within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            return unknown(group, c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage());
        } catch (Exception e) {
            return unknown(group, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /**
     * @param group       the service's application id; not null
     * @param registryUrl the registry the command encodes its events with; not null
     * @param members     active members of the service's group (&gt;= 0)
     * @return the choice for that many members
     */
    public static AggregatorChoice of(String group, String registryUrl, int members) {
        if (members <= 0) {
            return new AggregatorChoice(false, group, "no aggregator running on this Kafka: aggregating in this process");
        }
        if (registryUrl.startsWith(SchemaRegistryClients.MOCK_PREFIX)) {
            return new AggregatorChoice(false, group, "the running aggregator (group " + group + ") cannot decode"
                    + " events of the in-process registry " + registryUrl + ": aggregating in this process (give"
                    + " --schema-registry-url to use the aggregator)");
        }
        return new AggregatorChoice(true, group, "using the running aggregator (group " + group + ")");
    }

    /**
     * @param group  the service's application id; not null
     * @param reason why Kafka could not tell
     * @return the choice to aggregate in this process
     */
    static AggregatorChoice unknown(String group, String reason) {
        return new AggregatorChoice(false, group, "cannot tell whether an aggregator (group " + group + ") runs on"
                + " this Kafka (" + reason + "): aggregating in this process");
    }
}
