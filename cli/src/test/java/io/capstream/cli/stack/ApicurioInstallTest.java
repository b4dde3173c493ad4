package io.capstream.cli.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApicurioInstallTest {
    @TempDir
    Path tmp;

    @Test
    void unpacksATarballCompletely() throws IOException {
        Path tgz = tarball(tmp.resolve("a.tar.gz"), ApicurioRegistry.RUNNER_JAR, "lib/x.jar", "meta/info");
        Path target = tmp.resolve("cache").resolve("apicurio");
        ApicurioInstall.unpack(tgz, target);
        assertEquals("content of " + ApicurioRegistry.RUNNER_JAR, Files.readString(target.resolve(ApicurioRegistry.RUNNER_JAR)));
        assertEquals("content of lib/x.jar", Files.readString(target.resolve("lib/x.jar")));
        assertEquals(target, ApicurioInstall.locate(target));
        try (Stream<Path> s = Files.list(target.getParent())) {
            assertEquals(1, s.count(), "no temp directory left beside the install");
        }
    }

    @Test
    void refusesEntriesOutsideTheTarget() throws IOException {
        Path tgz = tarball(tmp.resolve("evil.tar.gz"), "../escaped.txt");
        Path target = tmp.resolve("cache").resolve("apicurio");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> ApicurioInstall.unpack(tgz, target));
        assertThat(e.getMessage()).contains("outside the target");
        assertFalse(Files.exists(tmp.resolve("cache").resolve("escaped.txt")));
        assertFalse(Files.exists(target));
    }

    @Test
    void aGivenDirectoryMustHoldTheRunnerJar() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ApicurioInstall.locate(tmp));
        assertThat(e.getMessage()).contains(ApicurioRegistry.RUNNER_JAR);
    }

    @Test
    void defaultInstallDirIsUnderTheUserCache() {
        assertTrue(ApicurioInstall.defaultInstallDir().endsWith(Path.of("capstream", "apicurio-2.6.13")));
    }

    private static Path tarball(Path file, String... names) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(out))) {
            for (String name : names) {
                byte[] data = ("content of " + name).getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(name);
                entry.setSize(data.length);
                tar.putArchiveEntry(entry);
                tar.write(data);
                tar.closeArchiveEntry();
            }
        }
        return file;
    }
}
