package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream aggregate}: not implemented yet. */
@Command(name = "aggregate", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class AggregateCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream aggregate: not implemented yet");
        return 2;
    }
}
