package io.capstream.cli.up;

import io.capstream.cli.config.ConfigDefaultProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines {@code capstream up} prints on stdout once everything runs: one {@code ready} line with
 * the flags other commands take, then the matching {@code export} lines. Scripts wait for the line
 * starting with {@link #READY_PREFIX}. Pure formatting, no secrets involved.
 */
public final class UpBanner {
    /** Start of the line printed when the stack is ready. */
    public static final String READY_PREFIX = "capstream up: ready";

    private UpBanner() {
    }

    /**
     * @param bootstrapServers  e.g. {@code 127.0.0.1:9092}; never null
     * @param schemaRegistryUrl e.g. {@code http://127.0.0.1:8081/apis/ccompat/v7}; never null
     * @param simBaseUrl        e.g. {@code http://127.0.0.1:8000/v1}, or null without the simulated engine
     * @return the lines, without line terminators
     */
    public static List<String> lines(String bootstrapServers, String schemaRegistryUrl, String simBaseUrl) {
        String flags = "--bootstrap-servers " + bootstrapServers + " --schema-registry-url " + schemaRegistryUrl
                + (simBaseUrl == null ? "" : " --base-url " + simBaseUrl);
        List<String> out = new ArrayList<>();
        out.add(READY_PREFIX + " " + flags);
        out.add("export " + ConfigDefaultProvider.envName("--bootstrap-servers") + "=" + bootstrapServers);
        out.add("export " + ConfigDefaultProvider.envName("--schema-registry-url") + "=" + schemaRegistryUrl);
        if (simBaseUrl != null) {
            out.add("export " + ConfigDefaultProvider.envName("--base-url") + "=" + simBaseUrl);
        }
        return out;
    }

    /**
     * @param readyLine a line printed by {@code capstream up}
     * @return the flags part of the ready line (e.g. {@code --bootstrap-servers ... --schema-registry-url ...}),
     *         or null when the line is not the ready line
     */
    public static String flagsOf(String readyLine) {
        return readyLine != null && readyLine.startsWith(READY_PREFIX + " ")
                ? readyLine.substring(READY_PREFIX.length() + 1) : null;
    }
}
