package io.capstream.cli.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repository's {@code docker-compose.yml}, parsed with Jackson YAML, with the few accessors the
 * deployment tests need (images, environment with {@code ${VAR:-default}} resolved to the default,
 * commands, ports). Test code only.
 *
 * @param path where the file was found
 * @param root the parsed document
 */
public record ComposeFile(Path path, JsonNode root) {
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?}");

    /**
     * Finds {@code docker-compose.yml} in the working directory or one of its parents (tests run
     * in {@code cli/}) and parses it.
     *
     * @return the parsed file
     * @throws IllegalStateException when no compose file is found
     * @throws UncheckedIOException when it cannot be read or parsed
     */
    public static ComposeFile load() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("docker-compose.yml");
            if (Files.isRegularFile(candidate) && Files.isDirectory(dir.resolve("cli"))) {
                return parse(candidate);
            }
        }
        throw new IllegalStateException("docker-compose.yml not found above " + Path.of("").toAbsolutePath());
    }

    /**
     * @param file a compose file
     * @return the parsed file
     */
    public static ComposeFile parse(Path file) {
        try {
            return new ComposeFile(file, new ObjectMapper(new YAMLFactory()).readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    /** @return service name -> service node, in file order */
    public Map<String, JsonNode> services() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        root.path("services").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /**
     * @param service a service name
     * @return its {@code image:} value
     * @throws IllegalArgumentException when the service or its image is missing
     */
    public String image(String service) {
        JsonNode img = services().getOrDefault(service, com.fasterxml.jackson.databind.node.MissingNode.getInstance()).path("image");
        if (!img.isTextual()) {
            throw new IllegalArgumentException("service " + service + " has no image in " + path);
        }
        return img.asText();
    }

    /**
     * @param service a service node
     * @return its environment (map or list form), values as written (interpolation not applied)
     */
    public static Map<String, String> rawEnvironment(JsonNode service) {
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode node = service.path("environment");
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asText()));
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                String s = item.asText();
                int eq = s.indexOf('=');
                env.put(eq < 0 ? s : s.substring(0, eq), eq < 0 ? "" : s.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * @param service a service node
     * @return its environment with every {@code ${VAR:-default}} replaced by its default (as when the
     *         variable is not set in the shell or a .env file)
     */
    public static Map<String, String> environment(JsonNode service) {
        Map<String, String> env = new LinkedHashMap<>();
        rawEnvironment(service).forEach((k, v) -> env.put(k, interpolateDefaults(v)));
        return env;
    }

    /**
     * @param value a compose value
     * @return the value with {@code ${VAR:-default}} / {@code ${VAR-default}} replaced by the default
     *         and {@code ${VAR}} by the empty string
     */
    public static String interpolateDefaults(String value) {
        Matcher m = INTERPOLATION.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(2) == null ? "" : m.group(2)));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * @param service a service node
     * @return its {@code command:} as a list (exec form); empty when absent
     */
    public static List<String> command(JsonNode service) {
        List<String> out = new ArrayList<>();
        JsonNode c = service.path("command");
        if (c.isArray()) {
            c.forEach(n -> out.add(n.asText()));
        } else if (c.isTextual()) {
            out.addAll(List.of(c.asText().trim().split("\\s+")));
        }
        return out;
    }

    /**
     * @param service a service node
     * @return container port -> published host port of its {@code ports:} (short syntax
     *         {@code [IP:]HOST:CONTAINER})
     */
    public static Map<Integer, Integer> ports(JsonNode service) {
        Map<Integer, Integer> out = new LinkedHashMap<>();
        for (Iterator<JsonNode> it = service.path("ports").elements(); it.hasNext(); ) {
            String[] parts = it.next().asText().split(":");
            int container = Integer.parseInt(parts[parts.length - 1].replaceAll("/.*", ""));
            int host = parts.length >= 2 ? Integer.parseInt(parts[parts.length - 2]) : container;
            out.put(container, host);
        }
        return out;
    }
}
