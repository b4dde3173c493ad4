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
        int ms = (int) Math.max(1, timeout.toMillis());
        Map<String, Object> cfg = new HashMap<>(props.admin());
        cfg.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        cfg.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        Admin admin = null;
        try {
            admin = Admin.create(cfg);
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes()
                    .get(ms + 2_000L, TimeUnit.MILLISECONDS);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return message(props.bootstrapServers(), "interrupted");
        } catch (ExecutionException e) {
            return message(props.bootstrapServers(), reason(e.getCause(), timeout));
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            return message(props.bootstrapServers(), reason(e, timeout));
        } finally {
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
        }
    }

    /**
     * @param bootstrap the bootstrap servers tried
     * @param reason    why they could not be used
     * @return {@code cannot reach Kafka at <bootstrap>: <reason>}
     */
    public static String message(String bootstrap, String reason) {
        return "cannot reach Kafka at " + bootstrap + ": " + reason;
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
            return "no broker answered within " + timeout.toSeconds() + " s (is it running, and is the address right?)";
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private static boolean isTimeout(Throwable t) {
        return t instanceof java.util.concurrent.TimeoutException
                || t instanceof org.apache.kafka.common.errors.TimeoutException;
    }
}
