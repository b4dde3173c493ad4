package io.capstream.cli.stack;

import io.capstream.cli.options.DurationConverter;
import io.capstream.schemas.time.CapClock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apicurio Registry 2.6.13 (SQL storage on H2, in memory or in a file under
 * {@link ApicurioConfig#storageDir()}; Confluent-compatible API under
 * {@code /apis/ccompat/v7}) running as a child JVM on a 127.0.0.1 port:
 * {@code java -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port=PORT -jar <runner jar>}.
 * {@link #start(ApicurioConfig)} returns once the registry logged "Listening on"; {@link #close()}
 * stops the process and its descendants and waits for them. A JVM shutdown hook stops the child if
 * the parent exits without closing it.
 *
 * <p>Works from the shaded jar: the registry is found or unpacked by {@link ApicurioInstall}.
 */
public final class ApicurioRegistry implements AutoCloseable {
    /** The Quarkus runner jar inside the install directory. */
    public static final String RUNNER_JAR = "apicurio-registry-app-" + ApicurioInstall.VERSION + "-runner.jar";
    /** Path of the Confluent-compatible API. */
    public static final String CCOMPAT_PATH = "/apis/ccompat/v7";
    private static final Logger LOG = LoggerFactory.getLogger(ApicurioRegistry.class);
    private static final int KEPT_LINES = 60;
    private static final long STOP_TIMEOUT_MS = 15_000;

    private final Process process;
    private final int port;
    private final Thread shutdownHook;
    private final CompletableFuture<Integer> unexpectedExit = new CompletableFuture<>();
    /** Completes once the exit of the process was looked at (after {@link #unexpectedExit} when it was unexpected). */
    private final CompletableFuture<Void> exitHandled;
    private volatile boolean stopping;
    private volatile OutputPump pump;
    private boolean closed;

    private ApicurioRegistry(Process process, int port) {
        this.process = process;
        this.port = port;
        this.shutdownHook = new Thread(this::stopProcess, "apicurio-shutdown");
        this.exitHandled = process.onExit().thenAccept(p -> {
            if (!stopping) {
                unexpectedExit.complete(p.exitValue());
            }
        });
    }

    /**
     * For tests: supervises an already started process as if it were the registry (no shutdown hook).
     *
     * @param process a child process; not null
     * @param port    the port to report
     * @return the handle
     */
    static ApicurioRegistry adopt(Process process, int port) {
        return new ApicurioRegistry(process, port);
    }

    /** @return completes once the process exited and {@link #unexpectedExit()} was decided */
    CompletableFuture<Void> exitHandled() {
        return exitHandled;
    }

    /**
     * Starts the registry and waits until it listens.
     *
     * @param config install dir, port, timeout, JVM options; never null
     * @return the running registry; close it to stop it
     * @throws IllegalStateException when it cannot be installed or started, or exits or does not
     *                               listen within {@code startTimeout} (the message holds its last
     *                               output lines); the child is stopped in that case
     */
    public static ApicurioRegistry start(ApicurioConfig config) {
        Path dir = ApicurioInstall.locate(config.installDir());
        int port = config.port() == 0 ? freePort() : config.port();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(config.jvmOptions());
        cmd.add("-Dquarkus.http.host=127.0.0.1");
        cmd.add("-Dquarkus.http.port=" + port);
        cmd.add("-Dquarkus.banner.enabled=false");
        if (config.jdbcUrl() != null) {
            try {
                Files.createDirectories(config.storageDir());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the registry's storage directory " + config.storageDir()
                        + ": " + e.getMessage(), e);
            }
            cmd.add("-Dquarkus.datasource.jdbc.url=" + config.jdbcUrl());
        }
        cmd.add("-jar");
        cmd.add(dir.resolve(RUNNER_JAR).toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Apicurio Registry: " + e.getMessage(), e);
        }
        ApicurioRegistry registry = new ApicurioRegistry(process, port);
        Runtime.getRuntime().addShutdownHook(registry.shutdownHook);
        OutputPump pump = new OutputPump(process, config.logFile());
        registry.pump = pump;
        pump.start();
        CapClock clock = CapClock.system();
        long startedNs = clock.nanoTime();
        try {
            CompletableFuture<Object> exited = process.onExit().thenApply(p -> p);
            Object first = CompletableFuture.anyOf(pump.listening, exited)
                    .get(config.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (first instanceof Process p) {
                throw new IllegalStateException("Apicurio Registry exited with code " + p.exitValue()
                        + " before listening. Last output:\n" + pump.lastLines());
            }
        } catch (TimeoutException e) {
            registry.close();
            throw new IllegalStateException("Apicurio Registry did not listen on port " + port + " within "
                    + DurationConverter.secondsText(config.startTimeout()) + " s. Last output:\n" + pump.lastLines(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            registry.close();
            throw new IllegalStateException("interrupted while starting Apicurio Registry", e);
        } catch (ExecutionException | RuntimeException e) {
            registry.close();
            throw e instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("Apicurio Registry failed to start: " + e.getMessage(), e);
        }
        LOG.info("Apicurio Registry listening on {} (started in {} ms)", registry.ccompatUrl(),
                TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - startedNs));
        return registry;
    }

    /** @return {@code http://127.0.0.1:PORT/apis/ccompat/v7}, the Confluent-compatible base URL */
    public String ccompatUrl() {
        return baseUrl() + CCOMPAT_PATH;
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** @return the HTTP port */
    public int port() {
        return port;
    }

    /** @return the child's process id */
    public long pid() {
        return process.pid();
    }

    /**
     * @return completes with the exit code when the registry process exits without {@link #close()}
     *         (or the JVM's shutdown) having stopped it, e.g. after {@code kill -9}; never completes otherwise
     */
    public CompletableFuture<Integer> unexpectedExit() {
        return unexpectedExit;
    }

    /** @return the registry's last output lines (at most 60), joined by newlines; empty when none */
    public String lastOutput() {
        OutputPump p = pump;
        return p == null ? "" : p.lastLines();
    }

    /** Stops the registry process and its descendants and waits for them (up to 15 s, then kills). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs anyway
        }
        stopProcess();
    }

    private void stopProcess() {
        stopping = true;
        List<ProcessHandle> all = new ArrayList<>();
        process.descendants().forEach(all::add);
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                h.destroyForcibly();
                h.onExit().join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            } catch (ExecutionException e) {
                h.destroyForcibly();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** Reads the child's output on a daemon thread: completes {@link #listening}, keeps the last lines, copies to a log file. */
    private static final class OutputPump extends Thread {
        final CompletableFuture<Object> listening = new CompletableFuture<>();
        private final Process process;
        private final Path logFile;
        private final Deque<String> last = new ArrayDeque<>();

        OutputPump(Process process, Path logFile) {
            super("apicurio-output-" + process.pid());
            setDaemon(true);
            this.process = process;
            this.logFile = logFile;
        }

        @Override
        public void run() {
            PrintWriter log = null;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                if (logFile != null) {
                    Files.createDirectories(logFile.toAbsolutePath().getParent());
                    log = new PrintWriter(Files.newBufferedWriter(logFile, StandardCharsets.UTF_8), true);
                }
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (last) {
                        last.addLast(line);
                        if (last.size() > KEPT_LINES) {
                            last.removeFirst();
                        }
                    }
                    if (log != null) {
                        log.println(line);
                    }
                    if (!listening.isDone() && line.contains("Listening on")) {
                        listening.complete(Boolean.TRUE);
                    }
                }
            } catch (IOException e) {
                LOG.debug("Apicurio output closed: {}", e.toString());
            } finally {
                if (log != null) {
                    log.close();
                }
            }
        }

        String lastLines() {
            synchronized (last) {
                return String.join("\n", last);
            }
        }
    }
}
