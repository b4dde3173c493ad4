package io.capstream.cli.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the Apicurio Registry child process.
 *
 * @param installDir   directory holding {@value ApicurioRegistry#RUNNER_JAR} and {@code lib/}; null =
 *                     {@code ~/.cache/capstream/apicurio-2.6.13}, unpacked from the Maven artifact in
 *                     the local repository when missing (see {@link ApicurioInstall})
 * @param port         HTTP port on 127.0.0.1; 0 = a free port
 * @param startTimeout how long to wait for "Listening on" (cold start takes 8-25 s on 2 cores)
 * @param jvmOptions   extra JVM options of the child (e.g. {@code -Xmx256m}); never null
 * @param logFile      file that receives the registry's stdout/stderr, or null to keep only the
 *                     last lines in memory (shown when start-up fails)
 */
public record ApicurioConfig(Path installDir, int port, Duration startTimeout, List<String> jvmOptions, Path logFile) {

    /** Validates and copies the arguments. */
    public ApicurioConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        Objects.requireNonNull(startTimeout, "startTimeout");
        jvmOptions = List.copyOf(Objects.requireNonNullElse(jvmOptions, List.of()));
    }

    /** @return default install location, free port, 90 s start timeout, small heap, no log file */
    public static ApicurioConfig defaults() {
        return new ApicurioConfig(null, 0, Duration.ofSeconds(90),
                List.of("-Xms64m", "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), null);
    }

    /**
     * @param dir install directory, or null for the default location
     * @return a copy with that install directory
     */
    public ApicurioConfig withInstallDir(Path dir) {
        return new ApicurioConfig(dir, port, startTimeout, jvmOptions, logFile);
    }

    /**
     * @param newPort HTTP port, 0 = free port
     * @return a copy with that port
     */
    public ApicurioConfig withPort(int newPort) {
        return new ApicurioConfig(installDir, newPort, startTimeout, jvmOptions, logFile);
    }

    /**
     * @param file log file for the child's output, or null
     * @return a copy with that log file
     */
    public ApicurioConfig withLogFile(Path file) {
        return new ApicurioConfig(installDir, port, startTimeout, jvmOptions, file);
    }
}
