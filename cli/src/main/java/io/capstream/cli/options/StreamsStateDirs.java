package io.capstream.cli.options;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The default Kafka Streams state directory of {@code capstream aggregate}: capstream's own, so that the state of
 * other Kafka Streams programs (whose default is {@code /tmp/kafka-streams}) is never mixed with it, and outside the
 * OS temp directory, which the OS may clear under a running application. Kafka Streams keeps each application's state
 * in {@code <dir>/<application id>}. Stateless.
 */
public final class StreamsStateDirs {
    /** The directory under the XDG state home. */
    static final String UNDER_STATE_HOME = "capstream/kafka-streams";
    /** Text of the default in {@code --help}. */
    public static final String HELP = "$XDG_STATE_HOME/capstream/kafka-streams (~/.local/state/capstream/kafka-streams;"
            + " <java.io.tmpdir>/capstream-<user>/kafka-streams when the home directory cannot be written)";

    private StreamsStateDirs() {
    }

    /**
     * @param env      the environment ({@code XDG_STATE_HOME}); not null
     * @param userHome the {@code user.home} property, or null
     * @param tmpDir   the {@code java.io.tmpdir} property; not null
     * @param user     the {@code user.name} property, or null
     * @return {@code $XDG_STATE_HOME/capstream/kafka-streams} when that variable is an absolute path, else
     *     {@code ~/.local/state/capstream/kafka-streams} when the home directory exists and can be written, else
     *     {@code <tmpDir>/capstream-<user>/kafka-streams}
     */
    public static Path defaultDir(Map<String, String> env, String userHome, String tmpDir, String user) {
        String stateHome = env.get("XDG_STATE_HOME");
        if (stateHome != null && !stateHome.isBlank() && Path.of(stateHome).isAbsolute()) {
            return Path.of(stateHome).resolve(UNDER_STATE_HOME);
        }
        if (userHome != null && !userHome.isBlank()) {
            Path home = Path.of(userHome);
            if (Files.isDirectory(home) && Files.isWritable(home)) {
                return home.resolve(".local/state").resolve(UNDER_STATE_HOME);
            }
        }
        String who = user == null || user.isBlank() ? "user" : user.replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(tmpDir, "capstream-" + who, "kafka-streams");
    }

    /** @return {@link #defaultDir} of this process (environment and system properties) */
    public static Path defaultDir() {
        return defaultDir(System.getenv(), System.getProperty("user.home"), System.getProperty("java.io.tmpdir"),
                System.getProperty("user.name"));
    }
}
