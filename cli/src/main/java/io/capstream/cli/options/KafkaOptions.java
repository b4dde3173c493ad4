package io.capstream.cli.options;

import io.capstream.cli.config.ConfigDefaultProvider;
import io.capstream.cli.config.Secrets;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.text.HttpUrls;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Kafka and schema registry connection options shared by every command that talks to Kafka
 * (picocli mixin: {@code @Mixin KafkaOptions kafka;}). With no {@code --bootstrap-servers},
 * commands that can start the embedded broker do so.
 *
 * <p>Each option also reads {@code CAPSTREAM_<OPTION>} and the {@code --config} file (see
 * {@link ConfigDefaultProvider}; {@code --config} itself is an inherited option of the root command,
 * so every subcommand takes it). Values are checked when the command line is parsed; a bad one is
 * a usage error (exit code 2) naming the option and where the value came from. Secrets (registry
 * credentials, secret Kafka settings) are never shown in help or messages.
 */
public final class KafkaOptions {
    /**
     * Where these options are listed in help: after the command's own options (within their section
     * where {@link OptionSections} groups them), in this class's order. They are declared on methods, and the JVM returns a class's methods in no fixed order,
     * so without an explicit {@code order} picocli's help would list them differently from one JVM
     * run to the next.
     */
    static final int HELP_ORDER = 10_000;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private String bootstrapServers;
    private String schemaRegistryUrl;
    private String basicAuth;
    private String bearerToken;
    private final Map<String, String> flagKafkaProperties = new LinkedHashMap<>();
    /** The merged settings Kafka's config classes last accepted ({@link KafkaSettingsCheck}), or null. */
    private Map<String, String> acceptedKafkaProperties;

    @Option(names = "--bootstrap-servers", order = HELP_ORDER + 0, paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers. Default: none (commands that can start an embedded broker do so)."
                    + " Env CAPSTREAM_BOOTSTRAP_SERVERS.")
    void setBootstrapServers(String value) {
        String v = value == null ? null : value.strip();
        if (v != null && !v.isEmpty()) {
            for (String server : v.split(",")) {
                String s = server.strip();
                if (s.indexOf('@') >= 0) {
                    // user-info (USER:PASSWORD@HOST:PORT) is no part of a Kafka address, and Kafka's own error
                    // ("Invalid url in bootstrap.servers: ...") would print the password: refuse it here, masked
                    throw usage("--bootstrap-servers", v, "expected HOST:PORT[,HOST:PORT...] without credentials, got '"
                            + maskUserInfo(v) + "' (Kafka credentials go in --kafka-property, e.g. sasl.jaas.config=...)");
                }
                int colon = s.lastIndexOf(':');
                if (colon <= 0 || !isPort(s.substring(colon + 1))) {
                    throw usage("--bootstrap-servers", v, "expected HOST:PORT[,HOST:PORT...], got '" + Secrets.redactUrls(v) + "'");
                }
            }
        }
        bootstrapServers = v == null || v.isEmpty() ? null : v;
    }

    @Option(names = "--schema-registry-url", order = HELP_ORDER + 1, paramLabel = "URL",
            description = "Confluent-compatible schema registry URL (Confluent, Apicurio .../apis/ccompat/v7, Karapace,"
                    + " Redpanda), or mock://SCOPE for the in-memory registry. Default: mock://capstream when Kafka is"
                    + " embedded. Env CAPSTREAM_SCHEMA_REGISTRY_URL.")
    void setSchemaRegistryUrl(String value) {
        String v = value == null ? null : value.strip();
        if (v != null && !v.isEmpty()) {
            if (v.startsWith("mock://")) {
                if (v.length() == "mock://".length()) {
                    throw usage("--schema-registry-url", v, "expected http(s)://HOST[:PORT][/PATH] or mock://SCOPE,"
                            + " got 'mock://'");
                }
            } else {
                // one or more comma-separated registries (fail-over), each checked as --base-url is
                boolean any = false;
                for (String one : v.split(",")) {
                    if (one.isBlank()) {
                        continue;
                    }
                    any = true;
                    String problem = HttpUrls.problem(one);
                    if (problem == null && java.net.URI.create(one.strip()).getHost() == null) {
                        problem = "has a host name the registry client cannot use (such as one with '_')";
                    }
                    if (problem != null) {
                        throw usage("--schema-registry-url", v, Secrets.redactUrls(one.strip()) + " " + problem
                                + (problem.startsWith("must start") ? " (or give mock://SCOPE)" : ""));
                    }
                }
                if (!any) {
                    throw usage("--schema-registry-url", v, "no URL in '" + v + "'");
                }
            }
        }
        schemaRegistryUrl = v == null || v.isEmpty() ? null : v;
    }

    @Option(names = "--schema-registry-basic-auth", order = HELP_ORDER + 2, paramLabel = "USER:PASSWORD",
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "HTTP basic credentials for the schema registry (never printed). Env CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH.")
    void setBasicAuth(String value) {
        String v = value == null || value.isEmpty() ? null : value;
        if (v != null && v.indexOf(':') <= 0) {
            throw usage("--schema-registry-basic-auth", v, "expected USER:PASSWORD (value hidden)");
        }
        basicAuth = v;
    }

    @Option(names = "--schema-registry-bearer-token", order = HELP_ORDER + 3, paramLabel = "TOKEN",
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Bearer token for the schema registry (never printed). Env CAPSTREAM_SCHEMA_REGISTRY_BEARER_TOKEN.")
    void setBearerToken(String value) {
        bearerToken = value == null || value.isBlank() ? null : value.strip();
    }

    @Option(names = "--kafka-property", order = HELP_ORDER + 4, paramLabel = "KEY=VALUE",
            showDefaultValue = CommandLine.Help.Visibility.NEVER,
            description = "Kafka client setting for every producer, consumer, admin and Streams client, repeatable"
                    + " (e.g. security.protocol=SASL_SSL). Merged per key over env CAPSTREAM_KAFKA_PROPERTY (one"
                    + " KEY=VALUE per line) and kafka.KEY=VALUE lines of the config file. A value Kafka's client"
                    + " configs refuse is a usage error before anything is sent. Secret values are never printed.")
    void putKafkaProperty(Map<String, String> values) {
        values.forEach((k, v) -> {
            if (k == null || k.isBlank()) {
                throw usage("--kafka-property", null, "expected KEY=VALUE with a non-empty key");
            }
            flagKafkaProperties.put(k.strip(), v == null ? "" : v.strip());
        });
    }

    /** @return the bootstrap servers, or null when none was given */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** @return the registry URL, or null when none was given */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    /**
     * @return the registry URL, or {@code fallback} when none was given
     * @param fallback e.g. {@code mock://capstream}
     */
    public String schemaRegistryUrlOr(String fallback) {
        return schemaRegistryUrl == null ? fallback : schemaRegistryUrl;
    }

    /**
     * Extra Kafka client settings, merged per key: flag over {@code CAPSTREAM_KAFKA_PROPERTY} over
     * the config file, checked by Kafka's own config classes ({@link KafkaSettingsCheck}) so that a bad value is a
     * usage error before any load is sent, not a failure of the first client made after it.
     *
     * @return an insertion-ordered copy; never null, possibly empty
     * @throws ParameterException when a setting is malformed, sets a key capstream owns, or is refused by Kafka's
     *                            config classes (naming {@code --kafka-property}, the key and where it came from)
     */
    public Map<String, String> kafkaProperties() {
        Map<String, String> merged = new LinkedHashMap<>();
        CommandLine cl = mixee == null ? null : mixee.commandLine();
        if (cl != null && cl.getDefaultValueProvider() instanceof ConfigDefaultProvider provider) {
            try {
                merged.putAll(provider.kafkaProperties());
            } catch (IllegalArgumentException e) {
                throw usage("--kafka-property", null, e.getMessage());
            }
        }
        merged.putAll(flagKafkaProperties);
        for (String key : merged.keySet()) {
            if (KafkaClientProperties.RESERVED.contains(key)) {
                throw usage("--kafka-property", null, "'" + key + "' is set by capstream"
                        + ("bootstrap.servers".equals(key) ? "; use --bootstrap-servers" : "") + ", not by --kafka-property");
            }
        }
        if (!merged.equals(acceptedKafkaProperties)) {
            KafkaSettingsCheck.Refusal refused = KafkaSettingsCheck.problem(merged);
            if (refused != null) {
                String source = null;
                if (refused.key() != null && !flagKafkaProperties.containsKey(refused.key())
                        && cl != null && cl.getDefaultValueProvider() instanceof ConfigDefaultProvider provider) {
                    source = provider.kafkaPropertySource(refused.key());
                }
                throw usage("--kafka-property", source, refused.message(), true);
            }
            acceptedKafkaProperties = Map.copyOf(merged);
        }
        return merged;
    }

    /**
     * @return the client settings to build every Kafka client from (bootstrap servers may be null
     *         when the command runs an embedded broker)
     * @throws ParameterException when a Kafka setting is malformed
     */
    public KafkaClientProperties clientProperties() {
        return new KafkaClientProperties(bootstrapServers, kafkaProperties());
    }

    /**
     * @return registry client settings (default timeouts and retries) carrying the credentials
     * @throws ParameterException when both basic auth and a bearer token are given
     */
    public RegistryClientConfig registryClientConfig() {
        if (basicAuth != null && bearerToken != null) {
            throw usage("--schema-registry-basic-auth", null, "give either --schema-registry-basic-auth or"
                    + " --schema-registry-bearer-token, not both");
        }
        RegistryClientConfig d = RegistryClientConfig.defaults();
        return new RegistryClientConfig(d.requestTimeout(), d.maxRetries(), d.retryBackoff(), basicAuth, bearerToken);
    }

    /**
     * Settings for a Confluent-style serde or registry client configured from properties
     * ({@code SpecificAvroSerde#configure}, {@code RegistryClientConfig#fromProperties}): the URL and,
     * when given, {@code basic.auth.user.info} / {@code bearer.auth.token}. The values are secret:
     * print only {@link io.capstream.cli.config.Secrets#redact(Map)} of them.
     *
     * @param url the registry URL actually used (e.g. {@link #schemaRegistryUrlOr(String)}); never null
     * @return a new mutable map
     * @throws ParameterException when both basic auth and a bearer token are given
     */
    public Map<String, String> serdeProperties(String url) {
        RegistryClientConfig c = registryClientConfig();
        Map<String, String> out = new LinkedHashMap<>();
        out.put("schema.registry.url", url);
        if (c.basicAuthUserInfo() != null) {
            out.put(RegistryClientConfig.BASIC_AUTH_USER_INFO, c.basicAuthUserInfo());
        }
        if (c.bearerToken() != null) {
            out.put(RegistryClientConfig.BEARER_AUTH_TOKEN, c.bearerToken());
        }
        return out;
    }

    /**
     * @return a one-line description of the connection for logs, secrets masked
     */
    public String describe() {
        return "bootstrap-servers=" + (bootstrapServers == null ? "(embedded)" : bootstrapServers)
                + " schema-registry-url=" + (schemaRegistryUrl == null ? "(default)" : Secrets.redactUrls(schemaRegistryUrl))
                + (basicAuth != null ? " schema-registry-basic-auth=" + Secrets.MASK : "")
                + (bearerToken != null ? " schema-registry-bearer-token=" + Secrets.MASK : "")
                + " kafka-properties=" + Secrets.redact(safeKafkaProperties());
    }

    @Override
    public String toString() {
        return "KafkaOptions[" + describe() + "]";
    }

    private Map<String, String> safeKafkaProperties() {
        try {
            return kafkaProperties();
        } catch (ParameterException e) {
            return flagKafkaProperties;
        }
    }

    private static boolean isPort(String s) {
        try {
            int p = Integer.parseInt(s);
            return p > 0 && p < 65536;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * @param servers a {@code --bootstrap-servers} value
     * @return the same with whatever precedes an {@code @} in each comma-separated entry replaced by {@code ***}
     */
    private static String maskUserInfo(String servers) {
        StringBuilder out = new StringBuilder();
        for (String server : servers.split(",", -1)) {
            if (out.length() > 0) {
                out.append(',');
            }
            int at = server.lastIndexOf('@');
            out.append(at < 0 ? server : "***" + server.substring(at));
        }
        return out.toString();
    }

    /**
     * @param option the option's long name
     * @param value  the rejected value (to tell whether it came from the environment or the config
     *               file), or null
     * @param message what is wrong, without secrets
     */
    private ParameterException usage(String option, String value, String message) {
        return usage(option, value, message, false);
    }

    /**
     * @param option  the option's long name
     * @param value   as {@link #usage(String, String, String)}, or (with {@code isSource}) where the value came from,
     *                e.g. {@code "environment variable CAPSTREAM_KAFKA_PROPERTY"}, or null
     * @param message what is wrong, without secrets
     * @param isSource whether {@code value} is the source itself
     */
    private ParameterException usage(String option, String value, String message, boolean isSource) {
        String source = isSource ? value : null;
        CommandLine cl = mixee == null ? null : mixee.commandLine();
        if (!isSource && value != null && cl != null && cl.getDefaultValueProvider() instanceof ConfigDefaultProvider provider
                && mixee.findOption(option) != null) {
            try {
                String fromConfig = provider.defaultValue(mixee.findOption(option));
                if (fromConfig != null && value.equals(fromConfig.strip())) {
                    source = provider.sourceOf(mixee.findOption(option));
                }
            } catch (IllegalArgumentException e) {
                source = null;
            }
        }
        String text = "Invalid value for option '" + option + "'" + (source == null ? "" : " (from " + source + ")")
                + ": " + message;
        return cl == null ? new ParameterException(new CommandLine(new Object()), text) : new ParameterException(cl, text);
    }
}
