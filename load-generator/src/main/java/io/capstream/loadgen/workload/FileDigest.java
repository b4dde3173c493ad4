package io.capstream.loadgen.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of a file's bytes, as the report records a {@code --dataset}'s or {@code --trace}'s
 * ({@code dataset_sha256}) and as {@code rerun} checks the file it is given against it.
 */
public final class FileDigest {
    private FileDigest() {
    }

    /**
     * @param file the file; not null
     * @return the SHA-256 of its bytes, 64 lower-case hex digits
     * @throws IOException when it cannot be read
     */
    public static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            int r;
            while ((r = in.read(buf)) > 0) {
                md.update(buf, 0, r);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
