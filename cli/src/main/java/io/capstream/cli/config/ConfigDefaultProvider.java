package io.capstream.cli.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Option defaults from the environment and an optional properties file.
 *
 * <p>For an option {@code --bootstrap-servers} the environment variable is
 * {@code CAPSTREAM_BOOTSTRAP_SERVERS} ({@link #envName(String)}) and the properties key
 * {@code bootstrap-servers}. Precedence, highest first: command-line flag, environment variable
 * (empty counts as unset), config file, the option's built-in default. The config file is named by
 * {@code --config FILE} or, failing that, by {@code CAPSTREAM_CONFIG}.
 *
 * <p>Kafka client settings are merged per key rather than per option ({@link #kafkaProperties()}):
 * the file may hold them as {@code kafka.<client key>=value} lines or as a {@code kafka-property}
 * value with one {@code key=value} per line; the environment as {@code CAPSTREAM_KAFKA_PROPERTY}
 * with one {@code key=value} per line.
 *
 * <p>Errors: an unreadable config file, or a key in it that no capstream command knows, surfaces
 * as a usage error (exit code 2) when the command line is parsed; picocli wraps the
 * {@link IllegalArgumentException} thrown from {@link #defaultValue(ArgSpec)} into a
 * {@link CommandLine.ParameterException}. Instances are immutable after the first lookup and
 * hold no static state.
 */
public final class ConfigDefaultProvider implements IDefaultValueProvider {
    /** Prefix of every environment variable capstream reads. */
    public static final String ENV_PREFIX = "CAPSTREAM_";
    /** Environment variable naming the config file when {@code --config} is absent. */
    public static final String CONFIG_ENV = ENV_PREFIX + "CONFIG";
    /** Config-file key prefix for Kafka client settings ({@code kafka.security.protocol=SASL_SSL}). */
    public static final String KAFKA_FILE_PREFIX = "kafka.";
    /** Long name of the repeatable Kafka client setting option. */
    public static final String KAFKA_PROPERTY_OPTION = "--kafka-property";
    /**
     * Environment variables the {@code ./capstream} launcher script or the provider itself reads
     * that are not options of any command.
     */
    public static final Set<String> NON_OPTION_ENV = Set.of(CONFIG_ENV, ENV_PREFIX + "JAVA_OPTS");

    private final Map<String, String> env;
    private final Properties file;
    private final String filePath;
    private final String fileError;
    private volatile boolean fileChecked;

    /**
     * @param env  environment variables; never null
     * @param file properties from {@code --config}; never null (empty when none)
     */
    public ConfigDefaultProvider(Map<String, String> env, Properties file) {
        this(env, file, null, null);
    }

    private ConfigDefaultProvider(Map<String, String> env, Properties file, String filePath, String fileError) {
        this.env = Map.copyOf(env);
        this.file = file;
        this.filePath = filePath;
        this.fileError = fileError;
    }

    /**
     * Builds the provider, reading the file named by {@code --config FILE} / {@code --config=FILE}
     * in {@code args} (the last one wins), or by {@code CAPSTREAM_CONFIG}. Never throws: a file that
     * cannot be read is reported as a usage error when the command line is parsed.
     *
     * @param args command-line arguments; never null
     * @param env  environment variables; never null
     * @return the provider
     */
    public static ConfigDefaultProvider fromArgs(String[] args, Map<String, String> env) {
        String path = env.get(CONFIG_ENV);
        for (int i = 0; i < args.length; i++) {
            if ("--".equals(args[i])) {
                break;
            }
            if ("--config".equals(args[i]) && i + 1 < args.length) {
                path = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                path = args[i].substring("--config=".length());
            }
        }
        Properties props = new Properties();
        if (path == null || path.isBlank()) {
            return new ConfigDefaultProvider(env, props, null, null);
        }
        try (Reader r = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            props.load(r);
            return new ConfigDefaultProvider(env, props, path, null);
        } catch (IOException | IllegalArgumentException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.charset.CharacterCodingException ? "not UTF-8 text (a binary file?)"
                    : e.getClass().getSimpleName() + ": " + e.getMessage();
            return new ConfigDefaultProvider(env, new Properties(), path, "cannot read config file " + path + " (" + why + ")");
        }
    }

    /**
     * @param optionLongName an option's long name, e.g. {@code --bootstrap-servers}
     * @return its environment variable, e.g. {@code CAPSTREAM_BOOTSTRAP_SERVERS}
     */
    public static String envName(String optionLongName) {
        return ENV_PREFIX + optionLongName.replaceFirst("^-+", "").toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * @param option an option
     * @return true when this provider supplies defaults for it (long options other than help,
     *         version and {@code --config})
     */
    public static boolean isConfigurable(OptionSpec option) {
        String longName = option.longestName();
        return longName.startsWith("--") && !option.usageHelp() && !option.versionHelp()
                && !"--config".equals(longName);
    }

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option) || !isConfigurable(option)) {
            return null;
        }
        checkFile(option.command());
        if (KAFKA_PROPERTY_OPTION.equals(option.longestName())) {
            return null; // merged per key by kafkaProperties()
        }
        String longName = option.longestName();
        String fromEnv = env.get(envName(longName));
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return fromEnv;
        }
        return file.getProperty(longName.substring(2));
    }

    /**
     * Where the value of an option not given on the command line comes from, for error messages.
     *
     * @param option an option; never null
     * @return e.g. {@code "environment variable CAPSTREAM_REQUESTS"}, {@code "config file
     *         a.properties (key requests)"}, or null when neither supplies it
     */
    public String sourceOf(OptionSpec option) {
        if (!isConfigurable(option)) {
            return null;
        }
        String longName = option.longestName();
        String fromEnv = env.get(envName(longName));
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return "environment variable " + envName(longName);
        }
        if (file.getProperty(longName.substring(2)) != null) {
            return "config file " + filePath + " (key " + longName.substring(2) + ")";
        }
        return null;
    }

    /**
     * Kafka client settings from the environment and the config file, merged per key (environment
     * wins). Flags are merged on top by {@code KafkaOptions}.
     *
     * @return an insertion-ordered, unmodifiable map; never null
     * @throws IllegalArgumentException when a line is not {@code key=value}
     */
    public Map<String, String> kafkaProperties() {
        Map<String, String> merged = new LinkedHashMap<>();
        for (String key : new TreeSet<>(file.stringPropertyNames())) {
            if (key.startsWith(KAFKA_FILE_PREFIX) && key.length() > KAFKA_FILE_PREFIX.length()) {
                merged.put(key.substring(KAFKA_FILE_PREFIX.length()), file.getProperty(key).trim());
            }
        }
        String fileLines = file.getProperty(KAFKA_PROPERTY_OPTION.substring(2));
        if (fileLines != null) {
            merged.putAll(parseLines(fileLines, "config file " + filePath + " (key kafka-property)"));
        }
        String envLines = env.get(envName(KAFKA_PROPERTY_OPTION));
        if (envLines != null && !envLines.isBlank()) {
            merged.putAll(parseLines(envLines, "environment variable " + envName(KAFKA_PROPERTY_OPTION)));
        }
        return Collections.unmodifiableMap(merged);
    }

    /**
     * Where {@link #kafkaProperties()} took a setting from, for error messages (the environment wins over the file).
     *
     * @param key a Kafka client key, e.g. {@code security.protocol}; not null
     * @return e.g. {@code "environment variable CAPSTREAM_KAFKA_PROPERTY"}, {@code "config file a.properties (key
     *         kafka.security.protocol)"}, or null when neither sets it
     * @throws IllegalArgumentException when a line is not {@code key=value} (as {@link #kafkaProperties()})
     */
    public String kafkaPropertySource(String key) {
        String envLines = env.get(envName(KAFKA_PROPERTY_OPTION));
        if (envLines != null && !envLines.isBlank()
                && parseLines(envLines, "environment variable " + envName(KAFKA_PROPERTY_OPTION)).containsKey(key)) {
            return "environment variable " + envName(KAFKA_PROPERTY_OPTION);
        }
        String fileLines = file.getProperty(KAFKA_PROPERTY_OPTION.substring(2));
        if (fileLines != null && parseLines(fileLines, "config file " + filePath).containsKey(key)) {
            return "config file " + filePath + " (key kafka-property)";
        }
        if (file.getProperty(KAFKA_FILE_PREFIX + key) != null) {
            return "config file " + filePath + " (key " + KAFKA_FILE_PREFIX + key + ")";
        }
        return null;
    }

    /**
     * Parses {@code key=value} lines (blank lines and lines starting with {@code #} skipped).
     *
     * @param text   the lines
     * @param source where they come from, for the error message
     * @return the settings in order
     * @throws IllegalArgumentException when a line has no {@code =} or an empty key
     */
    static Map<String, String> parseLines(String text, String source) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(source + ": expected key=value, got '"
                        + Secrets.redactSetting(line) + "'");
            }
            out.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return out;
    }

    /** @return the config file path, or null when none was given */
    public String configFile() {
        return filePath;
    }

    private void checkFile(CommandSpec anyCommand) {
        if (fileChecked) {
            return;
        }
        if (fileError != null) {
            throw new ConfigException(fileError);
        }
        if (!file.isEmpty() && anyCommand != null) {
            Set<String> known = knownKeys(anyCommand.root());
            List<String> unknown = new ArrayList<>();
            for (String key : new TreeSet<>(file.stringPropertyNames())) {
                if (!known.contains(key) && !key.startsWith(KAFKA_FILE_PREFIX)) {
                    unknown.add(key);
                }
            }
            if (!unknown.isEmpty()) {
                throw new ConfigException("config file " + filePath + ": unknown key" + (unknown.size() > 1 ? "s " : " ")
                        + String.join(", ", unknown) + " (keys are option names without dashes, e.g. bootstrap-servers,"
                        + " or kafka.<client setting>)");
            }
            kafkaProperties(); // fail early on malformed kafka-property lines
        }
        fileChecked = true;
    }

    /**
     * @param root the root command
     * @return every configurable long option name, without dashes, of the command tree
     */
    static Set<String> knownKeys(CommandSpec root) {
        Set<String> keys = new TreeSet<>();
        collect(root, keys);
        return keys;
    }

    private static void collect(CommandSpec spec, Set<String> keys) {
        for (OptionSpec o : spec.options()) {
            if (isConfigurable(o)) {
                keys.add(o.longestName().substring(2));
            }
        }
        for (CommandLine sub : spec.subcommands().values()) {
            collect(sub.getCommandSpec(), keys);
        }
    }
}
