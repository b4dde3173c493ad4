package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream replay}: not implemented yet. */
@Command(name = "replay", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class ReplayCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream replay: not implemented yet");
        return 2;
    }
}
