package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream generate}: not implemented yet. */
@Command(name = "generate", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class GenerateCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream generate: not implemented yet");
        return 2;
    }
}
