package io.capstream.cli.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.schemas.text.HttpUrls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The last {@code capstream check} verdict per target, so that {@code capstream run} can print it before T0 without
 * sending anything: one small JSON file per base URL, model and endpoint ({@code base_url}, {@code model},
 * {@code endpoint}, {@code checked_at}, {@code measurable}, {@code verdict}; no credentials: the base URL without
 * user-info and the masked verdict line) in {@code $XDG_CACHE_HOME/capstream/check} (default
 * {@code ~/.cache/capstream/check}). A verdict older than {@link #MAX_AGE} is not shown. Failures to read or write
 * are ignored: the cache only saves a check.
 */
public final class CheckCache {
    /** Age past which a cached verdict is not shown. */
    public static final Duration MAX_AGE = Duration.ofHours(24);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    /** @param dir the cache directory; not null */
    public CheckCache(Path dir) {
        this.dir = dir;
    }

    /**
     * @param env environment lookup; not null
     * @return the cache under {@code $XDG_CACHE_HOME}, else {@code $HOME/.cache}
     */
    public static CheckCache standard(java.util.function.Function<String, String> env) {
        String xdg = env.apply("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return new CheckCache(base.resolve("capstream").resolve("check"));
    }

    /**
     * A cached verdict.
     *
     * @param checkedAt  when the check ran
     * @param measurable whether the endpoint was measurable
     * @param verdict    the verdict line (masked)
     */
    public record Entry(Instant checkedAt, boolean measurable, String verdict) {
    }

    /**
     * Stores a report's verdict (ignoring I/O errors).
     *
     * @param report   the report; not null
     * @param verdict  its verdict line, already masked; not null
     * @param now      the time of the check
     */
    public void put(CheckReport report, String verdict, Instant now) {
        try {
            Files.createDirectories(dir);
            String url = HttpUrls.withoutUserInfo(report.baseUrl()); // the key, as CachedVerdict looks it up
            String json = JSON.createObjectNode().put("base_url", url).put("model", report.model())
                    .put("endpoint", report.endpoint()).put("checked_at", now.toString())
                    .put("measurable", report.measurable()).put("verdict", verdict).toString();
            Path tmp = Files.createTempFile(dir, "check", ".tmp");
            Files.writeString(tmp, json, StandardCharsets.UTF_8);
            Files.move(tmp, file(url, report.model(), report.endpoint()),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // the cache only saves a check: nothing is lost without it
        }
    }

    /**
     * @param baseUrl  the base URL without user-info
     * @param model    the model id
     * @param endpoint the endpoint label
     * @param now      the current time
     * @return the verdict stored for this target within {@link #MAX_AGE}, or empty
     */
    public Optional<Entry> get(String baseUrl, String model, String endpoint, Instant now) {
        try {
            Path f = file(baseUrl, model, endpoint);
            if (!Files.isRegularFile(f)) {
                return Optional.empty();
            }
            JsonNode n = JSON.readTree(Files.readString(f, StandardCharsets.UTF_8));
            Instant at = Instant.parse(n.path("checked_at").asText());
            if (!n.path("base_url").asText().equals(baseUrl) || !n.path("model").asText().equals(model)
                    || at.isAfter(now) || Duration.between(at, now).compareTo(MAX_AGE) > 0) {
                return Optional.empty();
            }
            return Optional.of(new Entry(at, n.path("measurable").asBoolean(), n.path("verdict").asText()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private Path file(String baseUrl, String model, String endpoint) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((baseUrl + "\n" + model + "\n" + endpoint)
                    .getBytes(StandardCharsets.UTF_8));
            return dir.resolve(HexFormat.of().formatHex(d, 0, 12) + ".json");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
