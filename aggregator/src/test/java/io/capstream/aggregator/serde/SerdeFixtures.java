package io.capstream.aggregator.serde;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes captured once from the aggregator's state serdes ({@code src/test/resources/fixtures/serde/*.bin}), so
 * that a change of a stored format (which a changelog or a state directory of the previous version would then
 * not restore) fails a test. A fixture is written only when missing and {@code -Dcapstream.serde.capture=true}
 * is set (never in a normal build: then a missing fixture fails).
 */
public final class SerdeFixtures {
    private static final Path DIR = Path.of("src/test/resources/fixtures/serde");

    private SerdeFixtures() {
    }

    /**
     * @param name    the fixture's file name, e.g. {@code server-window-state.bin}
     * @param current the bytes the serde writes today, written as the fixture when capturing
     * @return the captured bytes
     */
    public static byte[] captured(String name, byte[] current) {
        try (InputStream in = SerdeFixtures.class.getResourceAsStream("/fixtures/serde/" + name)) {
            if (in != null) {
                return in.readAllBytes();
            }
            if (!Boolean.getBoolean("capstream.serde.capture")) {
                throw new IllegalStateException("missing fixture " + name + " (capture it once with"
                        + " -Dcapstream.serde.capture=true)");
            }
            Files.createDirectories(DIR);
            Files.write(DIR.resolve(name), current);
            return current;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
