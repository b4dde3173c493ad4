package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream sim}: not implemented yet. */
@Command(name = "sim", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class SimCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream sim: not implemented yet");
        return 2;
    }
}
