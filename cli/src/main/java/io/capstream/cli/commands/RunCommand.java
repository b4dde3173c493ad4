package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream run}: not implemented yet. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream run: not implemented yet");
        return 2;
    }
}
