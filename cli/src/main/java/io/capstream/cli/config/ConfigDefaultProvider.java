package io.capstream.cli.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Option defaults from the environment and an optional properties file. For an option
 * {@code --bootstrap-servers} the environment variable is {@code CAPSTREAM_BOOTSTRAP_SERVERS} and
 * the properties key {@code bootstrap-servers}. Precedence: flag, environment, file, built-in default.
 */
public final class ConfigDefaultProvider implements IDefaultValueProvider {
    /** Prefix of every environment variable capstream reads. */
    public static final String ENV_PREFIX = "CAPSTREAM_";

    private final Map<String, String> env;
    private final Properties file;

    /**
     * @param env  environment variables; never null
     * @param file properties from {@code --config}; never null (empty when none)
     */
    public ConfigDefaultProvider(Map<String, String> env, Properties file) {
        this.env = env;
        this.file = file;
    }

    /**
     * Builds the provider, reading the file named by {@code --config FILE} / {@code --config=FILE}
     * in {@code args}, or by {@code CAPSTREAM_CONFIG}.
     *
     * @param args command-line arguments
     * @param env  environment variables
     * @return the provider
     * @throws IllegalArgumentException when the config file cannot be read
     */
    public static ConfigDefaultProvider fromArgs(String[] args, Map<String, String> env) {
        String path = env.get(ENV_PREFIX + "CONFIG");
        for (int i = 0; i < args.length; i++) {
            if ("--config".equals(args[i]) && i + 1 < args.length) {
                path = args[i + 1];
            } else if (args[i].startsWith("--config=")) {
                path = args[i].substring("--config=".length());
            }
        }
        Properties props = new Properties();
        if (path != null && !path.isBlank()) {
            try (Reader r = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read config file " + path + ": " + e.getMessage(), e);
            }
        }
        return new ConfigDefaultProvider(env, props);
    }

    /**
     * @param optionLongName an option's long name, e.g. {@code --bootstrap-servers}
     * @return its environment variable, e.g. {@code CAPSTREAM_BOOTSTRAP_SERVERS}
     */
    public static String envName(String optionLongName) {
        return ENV_PREFIX + optionLongName.replaceFirst("^-+", "").toUpperCase(Locale.ROOT).replace('-', '_');
    }

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option)) {
            return null;
        }
        String longName = option.longestName();
        if (!longName.startsWith("--") || option.usageHelp() || option.versionHelp() || "--config".equals(longName)) {
            return null;
        }
        String fromEnv = env.get(envName(longName));
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return fromEnv;
        }
        return file.getProperty(longName.substring(2));
    }

    /** Thrown as a usage error when a config value cannot be used. */
    static ParameterException usage(picocli.CommandLine cmd, String msg) {
        return new ParameterException(cmd, msg);
    }
}
