package io.capstream.cli.options;

import io.capstream.cli.config.Secrets;
import io.capstream.schemas.registry.HttpSchemaRegistryClient;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.registry.SchemaRegistryException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/**
 * The check a generator ({@code run}, {@code generate}, {@code generate --continuous}) makes of a
 * real schema registry before it sends any request to the endpoint, next to
 * {@link KafkaReachability}: one {@code GET <url>/subjects} (with the configured credentials, each
 * of several comma-separated URLs tried once) that must answer 2xx within a short timeout, and the
 * one-line message {@code cannot reach the schema registry at <url>: <reason>} when it does not.
 * Without the check, a run against a stopped registry measures the endpoint and then cannot encode
 * a single event. {@code mock://} registries are in-process and not checked. Stateless.
 */
public final class RegistryReachability {
    /** How long the check waits for the registry to answer. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private RegistryReachability() {
    }

    /**
     * @param url    the registry URL(s) as given to {@code --schema-registry-url}; null or
     *               {@code mock://...} is not checked
     * @param client client settings (credentials; its timeout counts when shorter than {@link #TIMEOUT}); not null
     * @return null when the registry answered (or needs no check), else the one-line error message
     */
    public static String check(String url, RegistryClientConfig client) {
        return check(url, client, TIMEOUT);
    }

    /**
     * @param url     the registry URL(s); null or {@code mock://...} is not checked
     * @param client  client settings (credentials); not null
     * @param timeout how long to wait for each URL; positive
     * @return null when the registry answered 2xx in time (or needs no check), else the one-line
     *         error message (credentials in the URL redacted)
     */
    public static String check(String url, RegistryClientConfig client, Duration timeout) {
        if (url == null || url.startsWith(SchemaRegistryClients.MOCK_PREFIX)) {
            return null;
        }
        long urls = Arrays.stream(url.split(",")).filter(s -> !s.isBlank()).count();
        Duration wait = client.requestTimeout().compareTo(timeout) < 0 ? client.requestTimeout() : timeout;
        // one attempt per URL: the transport moves on to the next URL after a connection error
        RegistryClientConfig once = client.withMaxRetries((int) Math.max(0, urls - 1)).withRequestTimeout(wait);
        try {
            HttpSchemaRegistryClient.create(url, once).subjects();
            return null;
        } catch (IllegalArgumentException e) {
            return message(url, e.getMessage());
        } catch (SchemaRegistryException e) {
            return message(url, reason(e, wait));
        }
    }

    /**
     * @param url    the registry URL(s) tried
     * @param reason why they could not be used
     * @return {@code cannot reach the schema registry at <url>: <reason>}, credentials redacted
     */
    public static String message(String url, String reason) {
        return Secrets.redactUrls("cannot reach the schema registry at " + url + ": " + reason);
    }

    private static String reason(SchemaRegistryException e, Duration wait) {
        Throwable cause = e.getCause();
        if (cause instanceof HttpTimeoutException) {
            return "no answer within " + Math.max(1, wait.toSeconds()) + " s (is it running, and is the URL right?)";
        }
        if (cause instanceof ConnectException) {
            return "connection refused (is it running, and is the URL right?)";
        }
        if (e.status() < 0) {
            return cause == null ? e.getMessage()
                    : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        }
        String text = e.getMessage();
        int failed = text.indexOf(" failed: ");
        text = (failed >= 0 ? "GET /subjects answered " + text.substring(failed + " failed: ".length()) : text)
                .replaceAll(" \\(after \\d+ attempts?\\)$", "");
        if (e.status() == 401 || e.status() == 403) {
            return text + " (check --schema-registry-basic-auth / --schema-registry-bearer-token)";
        }
        if (e.status() == 404) {
            return text + " (is the URL the registry's API root, e.g. http://HOST:8080/apis/ccompat/v7 for Apicurio?)";
        }
        return text;
    }
}
