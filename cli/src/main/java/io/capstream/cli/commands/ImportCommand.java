package io.capstream.cli.commands;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code capstream import}: not implemented yet. */
@Command(name = "import", mixinStandardHelpOptions = true, description = "Not implemented yet.")
public final class ImportCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("capstream import: not implemented yet");
        return 2;
    }
}
