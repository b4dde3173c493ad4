package io.capstream.cli.commands;

import io.capstream.cli.options.SimOptions;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstream sim}: runs the simulated OpenAI-compatible engine ({@link SimEngine}) until
 * Ctrl-C (SIGINT/SIGTERM). Exit 1 when the port cannot be bound, 2 on usage errors; stopped by
 * SIGINT / SIGTERM the JVM exits 130 / 143 (128 + the signal number) after the engine stopped.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:the port cannot be bound", "2:usage error",
            "130:stopped by Ctrl-C (SIGINT), after the engine stopped", "143:stopped by SIGTERM, likewise"},
        description = {"Runs the simulated OpenAI-compatible engine (GET /v1/models, POST /v1/chat/completions,"
                + " /v1/completions, /v1/responses (OpenAI Responses API) and /v1/messages (Anthropic Messages API),"
                + " GET /sim/stats) until Ctrl-C. Its model id is capstream-sim; label runs against it with --engine capstream-sim (the in-process engine of 'capstream run' is labelled so automatically).",
            "Timing: a request waits for one of --sim-slots slots, its uncached prompt tokens are prefilled at"
                + " --sim-prefill-tok-s on one shared lane, the first token follows --sim-ttft-ms later, then tokens stream"
                + " at min(--sim-stream-tok-s, --sim-decode-tok-s / decoding streams)."})
public final class SimCommand implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "PORT", description = "Port to listen on (0 = a free port). Default: ${DEFAULT-VALUE}.")
    int port = 8000;

    @Option(names = "--host", paramLabel = "ADDR", description = "Address to bind. Default: ${DEFAULT-VALUE}.")
    String host = "127.0.0.1";

    @Mixin
    SimOptions sim = new SimOptions();

    /** Stops a running {@link #call()} (tests); null until started. */
    private volatile CountDownLatch stopLatch;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            System.err.println("capstream sim: --port must be in 0..65535 (0 = a free port), got " + port);
            return 2;
        }
        SimConfig cfg;
        try {
            cfg = sim.toConfig(host, port);
        } catch (IllegalArgumentException e) {
            System.err.println("capstream sim: " + e.getMessage());
            return 2;
        }
        Vertx vertx = Vertx.vertx();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        stopLatch = stop;
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "capstream-sim-shutdown");
        try {
            SimEngine engine;
            try {
                engine = SimEngine.start(vertx, cfg).await(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("capstream sim: cannot listen on " + host + ":" + port + ": " + e.getMessage());
                return 1;
            }
            Runtime.getRuntime().addShutdownHook(hook);
            System.out.println("capstream sim: serving model " + cfg.modelId() + " at " + engine.baseUrl()
                    + " (engine label " + SimConfig.ENGINE_LABEL + "); Ctrl-C to stop");
            if (engine.certificatePath() != null) {
                System.out.println("capstream sim: https with a self-signed certificate for localhost: "
                        + engine.certificatePath() + " (--ca-cert it with https://localhost:" + engine.port()
                        + "/v1, or --insecure)");
            }
            System.out.flush();
            stop.await();
            engine.close();
            System.out.println("capstream sim: stopped after " + engine.stats().requests() + " requests ("
                    + engine.stats().completed() + " completed)");
            return 0;
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException | IllegalArgumentException e) {
                // shutting down or never added
            }
        }
    }

    /** Stops a running engine started by {@link #call()} (for tests). */
    void stop() {
        CountDownLatch l = stopLatch;
        if (l != null) {
            l.countDown();
        }
    }
}
