package io.capstream.schemas.registry;

import io.capstream.schemas.time.CapClock;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP transport of the Confluent Schema Registry REST API on {@code java.net.http}: JSON bodies
 * with content type {@value #CONTENT_TYPE}, basic or bearer authentication, per-request timeouts,
 * retries with exponential backoff on connection errors, timeouts, HTTP 5xx and 429 (never on other
 * 4xx), and {@link SchemaRegistryException}s that name the subject, the status and the registry's
 * {@code error_code}/{@code message}. When every attempt failed for want of an answer (connection
 * error, timeout, 5xx, 429) or the call was interrupted, the exception is a
 * {@link SchemaRegistryUnavailableException}: the registry could not answer, which says nothing about
 * the schema asked for.
 *
 * <p>The base URL may hold several comma-separated registry URLs; a request that cannot connect to
 * one moves on to the next. Credentials in a URL's userinfo ({@code http://user:pass@host}) are
 * used for basic auth when the config has none.
 */
final class RegistryTransport {
    /** Content type of every request and the preferred response type. */
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT = CONTENT_TYPE + ", application/vnd.schemaregistry+json; q=0.9, application/json; q=0.5";
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(RegistryTransport.class);

    private final List<URI> baseUris;
    private final RegistryClientConfig config;
    private final String authorization;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private volatile int current;

    RegistryTransport(String urls, RegistryClientConfig config) {
        this.config = config;
        List<URI> uris = new ArrayList<>();
        String userInfo = null;
        for (String part : urls.split(",")) {
            String trimmed = part.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            URI uri = URI.create(trimmed);
            if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                    || uri.getHost() == null) {
                throw new IllegalArgumentException("schema registry URL must be http(s)://host[:port][/path]: " + redact(trimmed));
            }
            if (uri.getRawUserInfo() != null && userInfo == null) {
                userInfo = URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8);
            }
            String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
            uris.add(URI.create(uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + path));
        }
        if (uris.isEmpty()) {
            throw new IllegalArgumentException("schema registry URL is empty");
        }
        this.baseUris = List.copyOf(uris);
        this.authorization = authorization(config, userInfo);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.requestTimeout())
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    private static String authorization(RegistryClientConfig config, String urlUserInfo) {
        if (config.bearerToken() != null && !config.bearerToken().isBlank()) {
            return "Bearer " + config.bearerToken();
        }
        String userInfo = config.basicAuthUserInfo() != null ? config.basicAuthUserInfo() : urlUserInfo;
        if (userInfo == null || userInfo.isEmpty()) {
            return null;
        }
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the registry base URL(s) without credentials, for messages */
    String describe() {
        return baseUris.toString();
    }

    /**
     * Sends one request, retrying as described in the class comment.
     *
     * @param method  HTTP method
     * @param path    path below the base URL, starting with {@code /}, already percent-encoded
     * @param body    JSON body, or null for none
     * @param subject subject the call concerns (for messages), or null
     * @return the parsed JSON response (a missing body is an empty object)
     * @throws SchemaRegistryUnavailableException when every attempt failed with a connection error, a
     *                                            timeout, HTTP 5xx or 429, or the call was interrupted
     * @throws SchemaRegistryException            on a 4xx response other than 429
     */
    JsonNode send(String method, String path, JsonNode body, String subject) {
        int attempts = Math.max(0, config.maxRetries()) + 1;
        Duration backoff = config.retryBackoff();
        SchemaRegistryException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            URI base = baseUris.get(Math.floorMod(current, baseUris.size()));
            URI uri = URI.create(base + path);
            try {
                HttpResponse<String> response = http.send(request(method, uri, body), HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    String text = response.body();
                    return text == null || text.isBlank() ? json.createObjectNode() : json.readTree(text);
                }
                SchemaRegistryException error = httpError(method, uri, subject, status, response.body());
                if (status < 500 && status != 429) {
                    throw error;
                }
                last = error;
            } catch (IOException e) {
                last = new SchemaRegistryException(describeCall(method, uri, subject) + " failed: "
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()), -1, e);
                current++; // next URL, if there are several
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryUnavailableException(describeCall(method, uri, subject) + " interrupted", -1, -1, e);
            }
            if (attempt < attempts) {
                LOG.debug("{} (attempt {}/{}), retrying in {} ms", last.getMessage(), attempt, attempts, backoff.toMillis());
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
        // only connection errors, timeouts, 5xx and 429 get here: the registry gave no answer
        throw new SchemaRegistryUnavailableException(last.getMessage() + " (after " + attempts + " attempt"
                + (attempts == 1 ? "" : "s") + ")", last.status(), last.errorCode(), last.getCause());
    }

    private HttpRequest request(String method, URI uri, JsonNode body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(config.requestTimeout())
                .header("Accept", ACCEPT);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        if (body != null) {
            b.header("Content-Type", CONTENT_TYPE);
            b.method(method, HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body), StandardCharsets.UTF_8));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return b.build();
    }

    private SchemaRegistryException httpError(String method, URI uri, String subject, int status, String body) {
        int code = -1;
        String message = body == null ? "" : body.strip();
        try {
            JsonNode node = body == null || body.isBlank() ? null : json.readTree(body);
            if (node != null && node.isObject()) {
                code = node.path("error_code").asInt(-1);
                if (node.hasNonNull("message")) {
                    message = node.get("message").asText();
                }
            }
        } catch (IOException e) {
            // not JSON: keep the raw body
        }
        if (message.length() > 500) {
            message = message.substring(0, 500) + "...";
        }
        return new SchemaRegistryException(describeCall(method, uri, subject) + " failed: HTTP " + status
                + (code >= 0 ? " (error_code " + code + ")" : "") + (message.isEmpty() ? "" : ": " + message),
                status, code, null);
    }

    private static String describeCall(String method, URI uri, String subject) {
        return "schema registry " + method + " " + uri + (subject == null ? "" : " for subject '" + subject + "'");
    }

    private static void sleep(Duration d) {
        try {
            CapClock.system().sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryUnavailableException("interrupted while waiting to retry a schema registry call", -1, -1, e);
        }
    }

    private static String redact(String url) {
        return io.capstream.schemas.text.Redaction.urls(url);
    }

    ObjectMapper json() {
        return json;
    }
}
