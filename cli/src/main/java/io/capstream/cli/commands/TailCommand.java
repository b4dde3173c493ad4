package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream tail}: not implemented yet. */
@Command(name = "tail", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class TailCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream tail: not implemented yet");
        return 2;
    }
}
