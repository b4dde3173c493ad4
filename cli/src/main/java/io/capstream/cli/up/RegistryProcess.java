package io.capstream.cli.up;

import io.capstream.cli.stack.ApicurioConfig;
import io.capstream.cli.stack.ApicurioRegistry;
import java.util.function.Consumer;

/** Starts the Apicurio Registry child process of {@code capstream up} (adapter over {@link ApicurioRegistry}). */
final class RegistryProcess {
    private RegistryProcess() {
    }

    /** Sub-directory of {@code --data-dir} that holds the registry's database file. */
    static final String STORAGE_SUBDIR = "registry";

    /**
     * @param cfg    the stack settings (registry port, start timeout, data directory: with one, the
     *               registry keeps its schemas in {@code DATA_DIR/registry/}, so schema ids stay
     *               stable across restarts and old records still decode)
     * @param closer receives the handle that stops the child process (and its descendants)
     * @return the running registry (its Confluent-compatible URL is
     *         {@code http://127.0.0.1:PORT/apis/ccompat/v7})
     * @throws RuntimeException when the registry does not start in time (the child is stopped)
     */
    static ApicurioRegistry start(UpConfig cfg, Consumer<AutoCloseable> closer) {
        ApicurioRegistry registry = ApicurioRegistry.start(config(cfg));
        closer.accept(registry);
        return registry;
    }

    /**
     * @param cfg the stack settings
     * @return the registry's settings: default install and JVM options, the stack's port and timeout,
     *         file storage under {@code DATA_DIR/registry} when a data directory is kept, else in memory
     */
    static ApicurioConfig config(UpConfig cfg) {
        ApicurioConfig d = ApicurioConfig.defaults();
        return new ApicurioConfig(d.installDir(), cfg.registryPort(), cfg.registryTimeout(), d.jvmOptions(),
                d.logFile(), cfg.dataDir() == null ? null : cfg.dataDir().resolve(STORAGE_SUBDIR));
    }
}
