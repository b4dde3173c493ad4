package io.capstream.cli.config;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Prints a usage error as one line, {@code capstream <command>: <message>}, plus picocli's "did you
 * mean" suggestions for a mistyped option and a pointer to {@code --help}, instead of the whole
 * usage text, which would bury the message. Returns the command's invalid-input exit code (2).
 */
public final class ShortUsageErrors implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        err.println(cmd.getColorScheme().errorText(name + ": " + ex.getMessage()));
        if (!UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println("Try '" + name + " --help' for the options.");
        } else {
            err.println("See '" + name + " --help' for the options.");
        }
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
}
