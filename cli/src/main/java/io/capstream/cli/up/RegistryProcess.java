package io.capstream.cli.up;

import java.util.function.Consumer;

/** Starts the Apicurio Registry child process of {@code capstream up} (adapter over the stack launcher). */
final class RegistryProcess {
    private RegistryProcess() {
    }

    /**
     * @param cfg    the stack settings (registry port and timeout)
     * @param closer receives the handle that stops the child process
     * @return the Confluent-compatible URL, {@code http://127.0.0.1:PORT/apis/ccompat/v7}
     * @throws Exception when the registry does not start
     */
    static String start(UpConfig cfg, Consumer<AutoCloseable> closer) throws Exception {
        throw new IllegalStateException("the Apicurio launcher is not available in this build yet");
    }
}
