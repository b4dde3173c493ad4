package io.capstream.loadgen.workload;

import io.capstream.schemas.text.Redaction;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The endpoint's credentials, sent as the {@code Authorization} header of every request: the API
 * key read from the environment variable named by {@code --api-key-env} (spec §2.3), whitespace
 * stripped, as {@code Bearer <key>}; or the {@code user:password@} of the base URL as HTTP basic
 * auth. They are only ever put into that header: {@link #toString()} hides them, and
 * {@link #redact(String)} masks them in any text that is recorded (a server may echo the key in an
 * error message), so they never reach events, reports or logs.
 */
public final class ApiKey {
    private static final ApiKey NONE = new ApiKey(null, List.of());
    private final String header;
    private final List<String> secrets;

    private ApiKey(String header, List<String> secrets) {
        this.header = header;
        this.secrets = secrets;
    }

    /** @return the absent key (no Authorization header) */
    public static ApiKey none() {
        return NONE;
    }

    /**
     * @param envName variable name, or null for no key
     * @param env     environment lookup
     * @return the key; {@link #none()} when {@code envName} is null
     * @throws IllegalArgumentException when the variable is missing or blank (a usage error)
     */
    public static ApiKey fromEnv(String envName, Function<String, String> env) {
        if (envName == null) {
            return NONE;
        }
        String v = env.apply(envName);
        if (v == null || v.strip().isEmpty()) {
            throw new IllegalArgumentException("environment variable " + envName + " is missing or empty");
        }
        String key = v.strip();
        return new ApiKey("Bearer " + key, List.of(key));
    }

    /**
     * HTTP basic credentials from a URL's userinfo, as {@code curl} and most HTTP clients send them.
     *
     * @param rawUserInfo the {@code user[:password]} part of a URL, still percent-encoded, or null
     * @return the credentials ({@code Authorization: Basic base64(user:password)}, percent-decoded);
     *         {@link #none()} for null
     */
    public static ApiKey basic(String rawUserInfo) {
        if (rawUserInfo == null) {
            return NONE;
        }
        String decoded = URLDecoder.decode(rawUserInfo.replace("+", "%2B"), StandardCharsets.UTF_8);
        String token = Base64.getEncoder().encodeToString(decoded.getBytes(StandardCharsets.UTF_8));
        int colon = rawUserInfo.indexOf(':');
        int decodedColon = decoded.indexOf(':');
        String rawPassword = colon < 0 ? null : rawUserInfo.substring(colon + 1);
        String password = decodedColon < 0 ? null : decoded.substring(decodedColon + 1);
        return new ApiKey("Basic " + token, java.util.stream.Stream.of(token, rawPassword, password)
                .filter(s -> s != null && !s.isEmpty()).distinct().toList());
    }

    /**
     * @param token the credentials of an {@code Authorization: Basic <token>} header
     * @return what the token encodes ({@code user:password}) and the password, or nothing when it is not base64
     */
    static List<String> basicSecrets(String token) {
        try {
            String decoded = new String(Base64.getDecoder().decode(token.strip()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? List.of(decoded) : List.of(decoded, decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }

    /** @return the Authorization header value ({@code Bearer <key>} or {@code Basic <token>}), or empty when there is none */
    public Optional<String> authorizationHeader() {
        return Optional.ofNullable(header);
    }

    /**
     * The key of {@code --api-key-env} alone, for APIs that take it in their own header (Anthropic's
     * {@code x-api-key}, issue 29) instead of {@code Authorization: Bearer}.
     *
     * @return the key, or empty when there is none or the credentials are the base URL's basic auth (which stays in
     *         {@code Authorization})
     */
    public Optional<String> bareKey() {
        return header != null && header.startsWith("Bearer ") ? Optional.of(header.substring("Bearer ".length()))
                : Optional.empty();
    }

    /**
     * @return the values to mask wherever text is recorded: the key, or the basic-auth token and password (raw and
     *         percent-decoded); empty for {@link #none()}
     */
    public List<String> secrets() {
        return secrets;
    }

    /** @return whether credentials are configured */
    public boolean present() {
        return header != null;
    }

    /**
     * @param text any text about to be recorded (an error message), may be null
     * @param cut  whether the text may have been cut short (then a start of the key at its end is masked too)
     * @return the text with the key (or the basic-auth password and token) replaced by {@value Redaction#MASK}
     */
    public String redact(String text, boolean cut) {
        return Redaction.secrets(text, secrets, cut);
    }

    @Override
    public String toString() {
        return header == null ? "ApiKey[none]" : "ApiKey[***]";
    }
}
