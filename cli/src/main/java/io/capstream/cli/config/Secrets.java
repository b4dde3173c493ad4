package io.capstream.cli.config;

import io.capstream.schemas.text.Redaction;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Redaction of secrets before anything is printed or logged: Kafka client settings
 * ({@code sasl.jaas.config}, {@code ssl.keystore.password}, ...), registry credentials, API keys,
 * and passwords embedded in URLs ({@code https://user:pass@host} shows as {@code https://***@host}).
 * Stateless.
 */
public final class Secrets {
    /** What a secret value is replaced with. */
    public static final String MASK = "[hidden]";

    /** Key fragments that mark a setting or option as secret (matched case-insensitively). */
    private static final Pattern SECRET_KEY = Pattern.compile(
            "(password|passwd|secret|token(?!s)|jaas|credential|user[._-]?info|api[._-]?key|basic[._-]?auth|bearer"
                    + "|private|(^|[._-])key$|keystore\\.key|keystore\\.certificate\\.chain|authorization)",
            Pattern.CASE_INSENSITIVE);

    private Secrets() {
    }

    /**
     * @param key a Kafka client key, option name ({@code --schema-registry-bearer-token}), env name or
     *            config key; null is not secret
     * @return true when values of that key must never be printed
     */
    public static boolean isSecret(String key) {
        if (key == null) {
            return false;
        }
        String k = key.replaceFirst("^-+", "").toLowerCase(Locale.ROOT).replace('_', '.');
        if (k.endsWith("serializer") || k.endsWith("deserializer") || k.endsWith(".key.type")
                || k.equals("credentials.source") || k.endsWith("auth.credentials.source")) {
            return false;
        }
        return SECRET_KEY.matcher(k).find();
    }

    /**
     * @param key   setting name (see {@link #isSecret(String)})
     * @param value its value, may be null
     * @return {@link #MASK} for a secret key (null stays null), otherwise the value with any URL
     *         credentials masked
     */
    public static String redact(String key, String value) {
        if (value == null) {
            return null;
        }
        return isSecret(key) ? MASK : redactUrls(value);
    }

    /**
     * @param settings settings to print; never null
     * @return a copy, in the same order, with secret values masked
     */
    public static Map<String, String> redact(Map<String, ?> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((k, v) -> out.put(k, redact(k, v == null ? null : String.valueOf(v))));
        return out;
    }

    /**
     * The same redaction as the events and reports get ({@link Redaction#urls}), so that a URL reads
     * the same on the console and in a report.
     *
     * @param text any text, may be null
     * @return the text with {@code user:password@} in URLs replaced by {@code ***@}
     */
    public static String redactUrls(String text) {
        return Redaction.urls(text);
    }

    /**
     * @param setting a {@code key=value} string (as given to {@code --kafka-property}); may be null
     * @return the same with the value masked when the key is secret
     */
    public static String redactSetting(String setting) {
        if (setting == null) {
            return null;
        }
        int eq = setting.indexOf('=');
        if (eq < 0) {
            return isSecret(setting) ? MASK : redactUrls(setting);
        }
        String key = setting.substring(0, eq);
        return key + "=" + redact(key.strip(), setting.substring(eq + 1));
    }
}
