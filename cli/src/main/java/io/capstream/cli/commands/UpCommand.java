package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream up}: not implemented yet. */
@Command(name = "up", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class UpCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream up: not implemented yet");
        return 2;
    }
}
