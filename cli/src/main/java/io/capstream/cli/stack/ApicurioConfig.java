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
 * @param storageDir   directory of the registry's H2 database file ({@value #DATABASE_NAME}.mv.db): schemas and
 *                     their global ids persist across restarts; null = in-memory storage, empty on every start
 */
public record ApicurioConfig(Path installDir, int port, Duration startTimeout, List<String> jvmOptions, Path logFile,
                             Path storageDir) {
    /** Name of the H2 database (file {@code DATABASE_NAME.mv.db} under {@link #storageDir()}). */
    public static final String DATABASE_NAME = "registry";

    /** Validates and copies the arguments. */
    public ApicurioConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        Objects.requireNonNull(startTimeout, "startTimeout");
        jvmOptions = List.copyOf(Objects.requireNonNullElse(jvmOptions, List.of()));
    }

    /** @return default install location, free port, 90 s start timeout, small heap, no log file, in-memory storage */
    public static ApicurioConfig defaults() {
        return new ApicurioConfig(null, 0, Duration.ofSeconds(90),
                List.of("-Xms64m", "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), null, null);
    }

    /**
     * @param dir install directory, or null for the default location
     * @return a copy with that install directory
     */
    public ApicurioConfig withInstallDir(Path dir) {
        return new ApicurioConfig(dir, port, startTimeout, jvmOptions, logFile, storageDir);
    }

    /**
     * @param newPort HTTP port, 0 = free port
     * @return a copy with that port
     */
    public ApicurioConfig withPort(int newPort) {
        return new ApicurioConfig(installDir, newPort, startTimeout, jvmOptions, logFile, storageDir);
    }

    /**
     * @param file log file for the child's output, or null
     * @return a copy with that log file
     */
    public ApicurioConfig withLogFile(Path file) {
        return new ApicurioConfig(installDir, port, startTimeout, jvmOptions, file, storageDir);
    }

    /**
     * @param dir directory of the registry's database file, or null for in-memory storage
     * @return a copy with that storage directory
     */
    public ApicurioConfig withStorageDir(Path dir) {
        return new ApicurioConfig(installDir, port, startTimeout, jvmOptions, logFile, dir);
    }

    /**
     * The JDBC URL of the registry's storage. Apicurio 2.6's default storage is SQL on an in-memory H2
     * database ({@code jdbc:h2:mem:registry_db}); a file URL under {@link #storageDir()} keeps the
     * schemas, their versions and the global-id sequence on disk.
     *
     * @return {@code jdbc:h2:file:/abs/dir/registry}, or null when the storage is in memory
     */
    public String jdbcUrl() {
        return storageDir == null ? null : "jdbc:h2:file:" + storageDir.toAbsolutePath().normalize().resolve(DATABASE_NAME);
    }
}
