package io.capstream.cli.config;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Usage-error handler that says where a rejected option value came from: when the value was not on
 * the command line but in {@code CAPSTREAM_<OPTION>} or the {@code --config} file, the message
 * names that variable or file key ("Invalid value for option '--requests': 'abc' is not an int
 * (value from environment variable CAPSTREAM_REQUESTS)"). Secret values are masked in the message.
 * Exit code and usage output are those of the wrapped handler (picocli's: exit code 2).
 */
public final class ConfigErrors implements IParameterExceptionHandler {
    private final IParameterExceptionHandler delegate;

    /** @param delegate the handler that prints the error and picks the exit code; never null */
    public ConfigErrors(IParameterExceptionHandler delegate) {
        this.delegate = delegate;
    }

    /**
     * Wraps the parameter exception handler of {@code cmd} (and its subcommands).
     *
     * @param cmd the root command line, with its default value provider already set; never null
     * @return {@code cmd}
     */
    public static CommandLine install(CommandLine cmd) {
        cmd.setParameterExceptionHandler(new ConfigErrors(cmd.getParameterExceptionHandler()));
        return cmd;
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) throws Exception {
        return delegate.handleParseException(explain(ex), args);
    }

    /**
     * @param ex a usage error; never null
     * @return {@code ex}, or a copy whose message names the environment variable or config file key
     *         that supplied the rejected value, with secret values masked
     */
    static ParameterException explain(ParameterException ex) {
        CommandLine cl = ex.getCommandLine();
        String message = String.valueOf(ex.getMessage());
        for (Throwable t = ex.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ConfigException config) {
                message = config.getMessage(); // picocli's wrapper text adds only noise
                break;
            }
        }
        if (ex.getArgSpec() instanceof OptionSpec option) {
            if (ex.getValue() != null && Secrets.isSecret(option.longestName())) {
                message = message.replace(ex.getValue(), Secrets.MASK);
            }
            if (cl != null && cl.getDefaultValueProvider() instanceof ConfigDefaultProvider provider
                    && ex.getValue() != null && !message.contains("(from ")) {
                String fromConfig;
                try {
                    fromConfig = provider.defaultValue(option);
                } catch (RuntimeException e) {
                    fromConfig = null;
                }
                String source = provider.sourceOf(option);
                if (source != null && fromConfig != null && ex.getValue().strip().equals(fromConfig.strip())) {
                    message = message + " (value from " + source + ")";
                }
            }
        }
        if (message.equals(ex.getMessage())) {
            return ex;
        }
        ParameterException copy = new ParameterException(cl, message, ex.getCause(), ex.getArgSpec(), ex.getValue());
        copy.setStackTrace(ex.getStackTrace());
        return copy;
    }
}
