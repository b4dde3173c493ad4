package io.capstream.cli.stack;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.kafka.common.utils.Utils;

/**
 * Finds an unpacked Apicurio Registry 2.6.13 or unpacks it from the Maven artifact
 * {@code io.apicurio:apicurio-registry-app:2.6.13.Final:tar.gz:all} in the local Maven repository
 * ({@code -Dmaven.repo.local}, else {@code ~/.m2/repository}) into
 * {@code ~/.cache/capstream/apicurio-2.6.13}. Unpacking goes to a temp directory that is renamed at
 * the end, so an interrupted unpack never leaves a half-installed registry behind.
 */
public final class ApicurioInstall {
    /** Apicurio version capstream runs (the last line that runs on Java 17). */
    public static final String VERSION = "2.6.13.Final";
    static final String TARBALL = "apicurio-registry-app-" + VERSION + "-all.tar.gz";

    private ApicurioInstall() {
    }

    /**
     * @param installDir an install directory to use as is, or null for the default location
     * @return a directory that holds the runner jar
     * @throws IllegalStateException when the given directory has no runner jar, or the tar.gz is not
     *                               in the local Maven repository (the message says how to fetch it)
     */
    public static Path locate(Path installDir) {
        if (installDir != null) {
            if (!Files.isRegularFile(installDir.resolve(ApicurioRegistry.RUNNER_JAR))) {
                throw new IllegalStateException("no " + ApicurioRegistry.RUNNER_JAR + " in " + installDir);
            }
            return installDir;
        }
        Path target = defaultInstallDir();
        if (Files.isRegularFile(target.resolve(ApicurioRegistry.RUNNER_JAR))) {
            return target;
        }
        Path tarball = localRepository().resolve("io/apicurio/apicurio-registry-app/" + VERSION + "/" + TARBALL);
        if (!Files.isRegularFile(tarball)) {
            throw new IllegalStateException("Apicurio Registry " + VERSION + " is not installed: neither " + target
                    + " nor " + tarball + " exists. Fetch it with: mvn dependency:get"
                    + " -Dartifact=io.apicurio:apicurio-registry-app:" + VERSION + ":tar.gz:all");
        }
        unpack(tarball, target);
        return target;
    }

    /** @return {@code ~/.cache/capstream/apicurio-2.6.13} (or under {@code $XDG_CACHE_HOME}) */
    public static Path defaultInstallDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("capstream").resolve("apicurio-2.6.13");
    }

    static Path localRepository() {
        String repo = System.getProperty("maven.repo.local");
        return repo != null && !repo.isBlank() ? Path.of(repo) : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /**
     * Unpacks a tar.gz into {@code target} (created; must not exist yet or be incomplete).
     *
     * @param tarball the archive
     * @param target  the final directory
     */
    static void unpack(Path tarball, Path target) {
        Path tmp = null;
        try {
            Files.createDirectories(target.getParent());
            tmp = Files.createTempDirectory(target.getParent(), target.getFileName() + ".unpacking-");
            Path root = tmp.toAbsolutePath().normalize();
            try (InputStream in = new BufferedInputStream(Files.newInputStream(tarball), 1 << 16);
                 TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    Path out = root.resolve(entry.getName()).normalize();
                    if (!out.startsWith(root)) {
                        throw new IOException("archive entry outside the target: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(out);
                    } else if (entry.isFile()) {
                        Files.createDirectories(out.getParent());
                        Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Utils.delete(target.toFile()); // an incomplete earlier install (missing: nothing to do)
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                if (!Files.isRegularFile(target.resolve(ApicurioRegistry.RUNNER_JAR))) {
                    Files.move(tmp, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + tarball + " into " + target + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                deleteLeftover(tmp);
            }
        }
    }

    /**
     * Deletes what is left of an unpack's temp directory (nothing after a successful rename) with
     * Kafka's {@link Utils#delete(java.io.File)}. A failure is ignored: a leftover
     * {@code *.unpacking-*} directory does no harm (the next unpack makes a new one), and it must not
     * hide the unpack's own outcome.
     */
    private static void deleteLeftover(Path dir) {
        try {
            Utils.delete(dir.toFile());
        } catch (IOException e) {
            // ignored, see above
        }
    }
}
