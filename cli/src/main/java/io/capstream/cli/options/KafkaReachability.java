package io.capstream.cli.options;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * The check every command that talks to an external Kafka makes before doing anything else
 * ({@code aggregate}, {@code run}/{@code generate} with {@code --bootstrap-servers}, {@code tail}):
 * one Admin {@code describeCluster} with a short timeout, and the one-line message
 * {@code cannot reach Kafka at <bootstrap servers>: <reason>} when it fails.
 */
public final class KafkaReachability {
    /** How long the check waits for a broker to answer. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private KafkaReachability() {
    }

    /**
     * @param props client settings (bootstrap servers, security); bootstrap servers not null
     * @return null when a broker answered within {@link #TIMEOUT}, else the one-line error message
     */
    public static String check(KafkaClientProperties props) {
        return check(props, TIMEOUT);
    }

    /**
     * @param props   client settings (bootstrap servers, security); bootstrap servers not null
     * @param timeout how long to wait for a broker
     * @return null when a broker answered in time, else the one-line error message
     */
    public static String check(KafkaClientProperties props, Duration timeout) {
        Outcome o = probe(props, timeout);
        return o.error();
    }

    /**
     * The result of one check.
     *
     * @param error    null when a broker answered, else the one-line error message
     * @param timedOut whether no broker answered in time (waiting longer may help), as opposed to an error a retry
     *                 does not cure (a malformed or unresolvable address, an authentication failure)
     */
    public record Outcome(String error, boolean timedOut) {
    }

    /**
     * @param props   client settings (bootstrap servers, security); bootstrap servers not null
     * @param timeout how long to wait for a broker
     * @return whether a broker answered in time, and if not why
     */
    public static Outcome probe(KafkaClientProperties props, Duration timeout) {
        int ms = (int) Math.max(1, timeout.toMillis());
        Map<String, Object> cfg = new HashMap<>(props.admin());
        cfg.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        cfg.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        Admin admin = null;
        try {
            admin = Admin.create(cfg);
            return probe(admin, props.bootstrapServers(), timeout);
        } catch (RuntimeException e) {
            return failure(props.bootstrapServers(), e, timeout);
        } finally {
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
        }
    }

    /**
     * One check over an Admin client the caller owns (and closes): {@code describeCluster} bounded by {@code timeout}
     * whatever the client's own timeouts.
     *
     * @param admin     the client; not null
     * @param bootstrap its bootstrap servers (for the message); not null
     * @param timeout   how long to wait for a broker
     * @return whether a broker answered in time, and if not why
     */
    public static Outcome probe(Admin admin, String bootstrap, Duration timeout) {
        int ms = (int) Math.max(1, timeout.toMillis());
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes()
                    .get(ms + 2_000L, TimeUnit.MILLISECONDS);
            return new Outcome(null, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(message(bootstrap, "interrupted"), false);
        } catch (ExecutionException e) {
            return failure(bootstrap, e.getCause(), timeout);
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            return failure(bootstrap, e, timeout);
        }
    }

    /**
     * @param bootstrap the bootstrap servers tried
     * @param e         why the check failed (e.g. the Admin client could not be created: an unresolvable address)
     * @param timeout   how long the check waited
     * @return the failed check's outcome, with its one-line message
     */
    public static Outcome failure(String bootstrap, Throwable e, Duration timeout) {
        String reason = reason(e, timeout);
        return new Outcome(message(bootstrap, reason), reason.startsWith(NO_ANSWER));
    }

    /**
     * @param bootstrap the bootstrap servers tried
     * @param reason    why they could not be used
     * @return {@code cannot reach Kafka at <bootstrap>: <reason>}
     */
    public static String message(String bootstrap, String reason) {
        return "cannot reach Kafka at " + bootstrap + ": " + reason;
    }

    private static final String NO_ANSWER = "no broker answered within ";

    /**
     * @param waited how long the broker was waited for
     * @return the reason of a check that timed out, e.g. {@code no broker answered within 10 s (is it running, ...)}
     */
    public static String noAnswer(Duration waited) {
        return NO_ANSWER + waited.toSeconds() + " s (is it running, and is the address right?)";
    }

    private static String reason(Throwable e, Duration timeout) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            if (isTimeout(t)) {
                break;
            }
            t = t.getCause();
        }
        if (isTimeout(t)) {
            return noAnswer(timeout);
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static boolean isTimeout(Throwable t) {
        return t instanceof java.util.concurrent.TimeoutException
                || t instanceof org.apache.kafka.common.errors.TimeoutException;
    }
}
