package io.capstream.cli.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * llama.cpp's {@code llama-server} with a synthetic model, started for a test when it is on this machine:
 * {@code $CAPSTREAM_LLAMA_SERVER} and {@code $CAPSTREAM_LLAMA_MODEL}, else the build and model that the peers'
 * {@code llama-server.sh} caches under {@code ~/.cache/capstream-peers}. Tests skip without it (a fresh CI
 * machine does not build llama.cpp: that takes about 15 minutes on 2 cores).
 */
public final class LlamaServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path log;

    private LlamaServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** @return the binary, or null when this machine has none */
    public static Path binary() {
        String env = System.getenv("CAPSTREAM_LLAMA_SERVER");
        Path p = env != null ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache/capstream-peers/llama.cpp/build/bin/llama-server");
        return Files.isExecutable(p) ? p : null;
    }

    /** @return the model file, or null when this machine has none */
    public static Path model() {
        String env = System.getenv("CAPSTREAM_LLAMA_MODEL");
        Path p = env != null ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache/capstream-peers/rand-llama-20m.gguf");
        return Files.isRegularFile(p) ? p : null;
    }

    /**
     * Starts it on a free loopback port and waits until {@code /health} answers. The port is found free and then
     * bound by llama-server a moment later: when another process took it in between (llama-server exits saying it
     * could not bind), it is started again on another port, up to 3 times.
     *
     * @param dir   where its log goes
     * @param extra extra arguments (e.g. {@code --metrics}, {@code -np 2})
     * @return the running server
     * @throws IOException when it cannot start
     */
    public static LlamaServer start(Path dir, String... extra) throws IOException {
        for (int attempt = 1; ; attempt++) {
            LlamaServer server = startOnce(dir, extra);
            if (server.process.isAlive() || attempt == 3 || !server.log().toLowerCase(java.util.Locale.ROOT)
                    .contains("bind")) {
                if (!server.process.isAlive()) {
                    throw new IllegalStateException("llama-server exited: " + server.log());
                }
                return server;
            }
        }
    }

    private static LlamaServer startOnce(Path dir, String... extra) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(binary().toString(), "-m", model().toString(), "--alias",
                "random-llama-20m", "--reasoning-format", "deepseek", "--reasoning-budget", "32", "--host", "127.0.0.1",
                "--port", Integer.toString(port), "-c", "4096", "-t", "1", "--no-webui"));
        cmd.addAll(List.of(extra));
        Path log = dir.resolve("llama-server-" + port + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LlamaServer server = new LlamaServer(p, port, log);
        HttpClient http = HttpClient.newHttpClient();
        try {
            // a model load on a loaded 2-core machine: minutes at worst; ends as soon as /health answers or it exited
            Awaitility.await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> !p.isAlive() || http.send(HttpRequest.newBuilder(URI.create(server.url("/health")))
                            .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** @param path a path starting with / @return its URL on this server */
    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** @return its log so far */
    public String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
