package io.capstream.cli.up;

import io.capstream.cli.stack.ApicurioConfig;
import io.capstream.cli.stack.ApicurioRegistry;
import java.util.function.Consumer;

/** Starts the Apicurio Registry child process of {@code capstream up} (adapter over {@link ApicurioRegistry}). */
final class RegistryProcess {
    private RegistryProcess() {
    }

    /**
     * @param cfg    the stack settings (registry port and start timeout)
     * @param closer receives the handle that stops the child process (and its descendants)
     * @return the Confluent-compatible URL, {@code http://127.0.0.1:PORT/apis/ccompat/v7}
     * @throws RuntimeException when the registry does not start in time (the child is stopped)
     */
    static String start(UpConfig cfg, Consumer<AutoCloseable> closer) {
        ApicurioConfig d = ApicurioConfig.defaults();
        ApicurioConfig c = new ApicurioConfig(d.installDir(), cfg.registryPort(), cfg.registryTimeout(), d.jvmOptions(),
                d.logFile());
        ApicurioRegistry registry = ApicurioRegistry.start(c);
        closer.accept(registry);
        return registry.ccompatUrl();
    }
}
