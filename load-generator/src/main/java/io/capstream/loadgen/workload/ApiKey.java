package io.capstream.loadgen.workload;

import java.util.Optional;
import java.util.function.Function;

/**
 * The API key read from the environment variable named by {@code --api-key-env} (spec §2.3),
 * whitespace stripped. It is only ever put into an {@code Authorization} header: {@link #toString()}
 * hides it, and it is never logged nor written to events or reports.
 */
public final class ApiKey {
    private static final ApiKey NONE = new ApiKey(null);
    private final String value;

    private ApiKey(String value) {
        this.value = value;
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
        return new ApiKey(v.strip());
    }

    /** @return {@code Bearer <key>} for the Authorization header, or empty when there is no key */
    public Optional<String> authorizationHeader() {
        return value == null ? Optional.empty() : Optional.of("Bearer " + value);
    }

    /** @return whether a key is configured */
    public boolean present() {
        return value != null;
    }

    @Override
    public String toString() {
        return value == null ? "ApiKey[none]" : "ApiKey[***]";
    }
}
