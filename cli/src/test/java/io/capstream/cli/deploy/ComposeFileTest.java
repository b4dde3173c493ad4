package io.capstream.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Validates {@code docker-compose.yml} without Docker: it parses, every image is pinned, every
 * {@code CAPSTREAM_*} variable a service sets is an option of the command it runs (env names derived
 * from the picocli model), each capstream service's command line parses with its environment, and
 * service names and ports agree with the commands' defaults.
 */
class ComposeFileTest {
    /** The JAR mount every capstream service uses. */
    static final String JAR_MOUNT = "./cli/target/capstream.jar:/app/capstream.jar:ro";
    static final List<String> JAVA_PREFIX = List.of("java", "-jar", "/app/capstream.jar");
    private static final Pattern PINNED_TAG = Pattern.compile("\\d+\\.\\d+\\.\\d+([._-][A-Za-z0-9._-]+)?");
    private static final Pattern ENV_REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)");

    static ComposeFile compose;
    static Map<String, JsonNode> services;
    static CommandLine cli;

    @BeforeAll
    static void load() {
        compose = ComposeFile.load();
        services = compose.services();
        cli = CapstreamMain.newCommandLine(new ConfigDefaultProvider(Map.of(), new Properties()));
    }

    /** @return option long name -> env name, for a subcommand of the real command tree */
    static Map<String, String> envNamesOf(String subcommand) {
        CommandLine sub = cli.getSubcommands().get(subcommand);
        assertNotNull(sub, "capstream has no subcommand '" + subcommand + "'");
        Map<String, String> out = new LinkedHashMap<>();
        for (OptionSpec o : sub.getCommandSpec().options()) {
            if (ConfigDefaultProvider.isConfigurable(o)) {
                out.put(o.longestName(), ConfigDefaultProvider.envName(o.longestName()));
            }
        }
        return out;
    }

    /** @return the default of an option as picocli would apply it with no flag, env or file */
    static String optionDefault(String subcommand, String longName) {
        CommandSpec spec = cli.getSubcommands().get(subcommand).getCommandSpec();
        OptionSpec o = spec.findOption(longName);
        assertNotNull(o, "capstream " + subcommand + " has no option " + longName);
        return o.defaultValue() != null ? o.defaultValue() : String.valueOf(o.initialValue());
    }

    static List<String> capstreamServices() {
        List<String> out = new ArrayList<>();
        services.forEach((name, svc) -> {
            List<String> cmd = ComposeFile.command(svc);
            if (cmd.size() > JAVA_PREFIX.size() && cmd.subList(0, JAVA_PREFIX.size()).equals(JAVA_PREFIX)) {
                out.add(name);
            }
        });
        return out;
    }

    static String subcommandOf(String service) {
        return ComposeFile.command(services.get(service)).get(JAVA_PREFIX.size());
    }

    @Test
    void parsesAndHasTheExpectedServices() {
        assertEquals(Set.of("kafka", "schema-registry", "sim", "aggregator", "generator"), services.keySet());
        assertEquals(List.of("sim", "aggregator", "generator"), capstreamServices());
        assertEquals("aggregate", subcommandOf("aggregator"));
        assertEquals(List.of("java", "-jar", "/app/capstream.jar", "generate", "--continuous"),
                ComposeFile.command(services.get("generator")));
        assertEquals("sim", subcommandOf("sim"));
        assertThat(compose.image("kafka")).startsWith("apache/kafka:4.");
        assertThat(compose.image("schema-registry")).startsWith("confluentinc/cp-schema-registry:");
    }

    /**
     * Where a Compose implementation is installed ({@code docker compose} or {@code docker-compose};
     * neither needs a running engine for {@code config}), it validates the file too. Skipped otherwise.
     */
    @Test
    void composeToolAcceptsTheFileWhenInstalled() throws Exception {
        for (List<String> tool : List.of(List.of("docker", "compose"), List.of("docker-compose"))) {
            List<String> version = new ArrayList<>(tool);
            version.add("version");
            if (exec(version).exitCode() != 0) {
                continue; // not installed, or the docker CLI without the compose plugin
            }
            List<String> argv = new ArrayList<>(tool);
            argv.addAll(List.of("-f", compose.path().toString(), "config", "-q"));
            Exec config = exec(argv);
            assertEquals(0, config.exitCode(), String.join(" ", argv) + ":\n" + config.output());
            return;
        }
        org.junit.jupiter.api.Assumptions.abort("no docker compose / docker-compose installed");
    }

    private record Exec(int exitCode, String output) {
    }

    private static Exec exec(List<String> argv) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Exec(-1, output + " (timed out)");
            }
            return new Exec(p.exitValue(), output);
        } catch (java.io.IOException notInstalled) {
            return new Exec(-1, notInstalled.toString());
        }
    }

    @Test
    void everyImageIsPinned() {
        services.forEach((name, svc) -> {
            String image = svc.path("image").asText("");
            assertThat(image).as(name + " has no image (build: is not used; the jar is mounted)").isNotEmpty();
            int colon = image.lastIndexOf(':');
            assertTrue(colon > image.lastIndexOf('/'), name + ": image without a tag: " + image);
            String tag = image.substring(colon + 1);
            assertFalse(tag.equalsIgnoreCase("latest"), name + ": latest tag");
            assertTrue(PINNED_TAG.matcher(tag).matches(), name + ": floating tag '" + tag + "' (need MAJOR.MINOR.PATCH)");
        });
        Set<String> jreImages = new HashSet<>();
        capstreamServices().forEach(s -> jreImages.add(compose.image(s)));
        assertEquals(1, jreImages.size(), "all capstream services use one JRE image: " + jreImages);
        assertThat(jreImages.iterator().next()).as(jreImages.toString()).startsWith("eclipse-temurin:17.");
    }

    @Test
    void everyCapstreamVariableIsReadByTheCommand() {
        Set<String> allCliEnv = new TreeSet<>(ConfigDefaultProvider.NON_OPTION_ENV);
        for (String sub : cli.getSubcommands().keySet()) {
            allCliEnv.addAll(envNamesOf(sub).values());
        }
        services.forEach((name, svc) -> {
            Map<String, String> raw = ComposeFile.rawEnvironment(svc);
            Set<String> readHere = capstreamServices().contains(name)
                    ? new HashSet<>(envNamesOf(subcommandOf(name)).values()) : Set.of();
            for (Map.Entry<String, String> e : raw.entrySet()) {
                if (e.getKey().startsWith(ConfigDefaultProvider.ENV_PREFIX)) {
                    assertThat(readHere).as(name + " sets " + e.getKey() + " but capstream "
                            + (capstreamServices().contains(name) ? subcommandOf(name) : "(not run by this service)")
                            + " reads only " + new TreeSet<>(readHere)).contains(e.getKey());
                }
                Matcher m = ENV_REF.matcher(e.getValue());
                while (m.find()) {
                    String ref = m.group(1);
                    if (ref.startsWith(ConfigDefaultProvider.ENV_PREFIX)) {
                        assertEquals(e.getKey(), ref, name + ": " + e.getKey() + " is fed from a differently named variable");
                        assertThat(allCliEnv).as(ref + " is not read by capstream").contains(ref);
                    }
                }
            }
        });
    }

    @Test
    void eachCapstreamServiceCommandParsesWithItsEnvironment() {
        for (String name : capstreamServices()) {
            JsonNode svc = services.get(name);
            List<String> cmd = ComposeFile.command(svc);
            String[] args = cmd.subList(JAVA_PREFIX.size(), cmd.size()).toArray(String[]::new);
            CommandLine line = CapstreamMain.newCommandLine(new ConfigDefaultProvider(ComposeFile.environment(svc), new Properties()));
            try {
                line.parseArgs(args);
            } catch (CommandLine.ParameterException e) {
                fail(name + ": `capstream " + String.join(" ", args) + "` with its environment does not parse: " + e.getMessage());
            }
            List<String> volumes = new ArrayList<>();
            svc.path("volumes").forEach(v -> volumes.add(v.asText()));
            assertThat(volumes).as(name + " must mount the jar read-only: " + volumes).contains(JAR_MOUNT);
        }
    }

    @Test
    void healthChecksRestartPoliciesAndNamedVolumes() {
        Set<String> declared = new HashSet<>();
        compose.root().path("volumes").fieldNames().forEachRemaining(declared::add);
        Set<String> used = new HashSet<>();
        services.forEach((name, svc) -> {
            assertThat(Set.of("unless-stopped", "always", "on-failure")).as(name + ": restart policy")
                    .contains(svc.path("restart").asText());
            if (!name.equals("generator")) {
                assertTrue(svc.path("healthcheck").path("test").isArray(), name + ": health check");
            }
            svc.path("volumes").forEach(v -> {
                String src = v.asText().split(":")[0];
                if (!src.startsWith(".") && !src.startsWith("/")) {
                    used.add(src);
                }
            });
            svc.path("depends_on").fieldNames().forEachRemaining(dep ->
                    assertThat(services).as(name + " depends on unknown service " + dep).containsKey(dep));
        });
        assertEquals(declared, used, "named volumes declared vs used");
        assertThat(used).contains("kafka-data");
    }

    @Test
    void kafkaAddressAgreesWithTheBrokerAndCapstreamUp() {
        Map<String, String> kafkaEnv = ComposeFile.environment(services.get("kafka"));
        Set<String> advertised = new HashSet<>();
        for (String l : kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS").split(",")) {
            advertised.add(l.substring(l.indexOf("://") + 3));
        }
        for (String name : capstreamServices()) {
            String bootstrap = ComposeFile.environment(services.get(name)).get("CAPSTREAM_BOOTSTRAP_SERVERS");
            if (bootstrap == null) {
                continue;
            }
            assertThat(advertised).as(name + ": " + bootstrap + " is not advertised by kafka " + advertised)
                    .contains(bootstrap);
            assertThat(services).as(bootstrap).containsKey(bootstrap.split(":")[0]);
        }
        // Host clients use the same address capstream up prints by default.
        String upPort = optionDefault("up", "--kafka-port");
        assertEquals(Integer.parseInt(upPort), ComposeFile.ports(services.get("kafka")).values().iterator().next());
        assertThat(advertised).contains("127.0.0.1:" + upPort);
    }

    @Test
    void registryAddressAgreesWithTheRegistryService() {
        Map<String, String> srEnv = ComposeFile.environment(services.get("schema-registry"));
        int listenPort = URI.create(srEnv.get("SCHEMA_REGISTRY_LISTENERS")).getPort();
        for (String name : capstreamServices()) {
            String url = ComposeFile.environment(services.get(name)).get("CAPSTREAM_SCHEMA_REGISTRY_URL");
            if (url == null) {
                continue;
            }
            URI u = URI.create(url);
            assertEquals("schema-registry", u.getHost(), name);
            assertEquals(listenPort, u.getPort(), name);
        }
        assertEquals(Map.of(listenPort, Integer.parseInt(optionDefault("up", "--registry-port"))),
                ComposeFile.ports(services.get("schema-registry")), "host port = capstream up's registry port");
    }

    @Test
    void aggregatorPortAgreesWithTheAggregateDefault() {
        JsonNode agg = services.get("aggregator");
        String port = ComposeFile.environment(agg).getOrDefault("CAPSTREAM_HTTP_PORT", optionDefault("aggregate", "--http-port"));
        assertEquals(optionDefault("aggregate", "--http-port"), port, "compose keeps aggregate's default HTTP port");
        assertThat(ComposeFile.ports(agg)).as("HTTP port published").containsKey(Integer.parseInt(port));
        assertThat(agg.path("healthcheck").path("test").toString()).as("health check uses it")
                .contains("localhost:" + port);
        assertEquals("0.0.0.0", ComposeFile.environment(agg).get("CAPSTREAM_HTTP_HOST"),
                "the API must listen on all interfaces inside its container to be published");
    }

    @Test
    void generatorTargetsTheSimServiceByDefault() {
        JsonNode gen = services.get("generator");
        assertEquals("${CAPSTREAM_BASE_URL:-http://sim:8000/v1}", ComposeFile.rawEnvironment(gen).get("CAPSTREAM_BASE_URL"),
                "one variable, CAPSTREAM_BASE_URL, sets the target");
        URI base = URI.create(ComposeFile.environment(gen).get("CAPSTREAM_BASE_URL"));
        JsonNode sim = services.get("sim");
        Map<String, String> simEnv = ComposeFile.environment(sim);
        String simPort = simEnv.getOrDefault("CAPSTREAM_PORT", optionDefault("sim", "--port"));
        assertEquals("sim", base.getHost());
        assertEquals(Integer.parseInt(simPort), base.getPort());
        assertEquals("0.0.0.0", simEnv.getOrDefault("CAPSTREAM_HOST", optionDefault("sim", "--host")),
                "the sim must listen on all interfaces inside its container");
        assertThat(ComposeFile.ports(sim)).containsKey(Integer.parseInt(simPort));
        assertThat(sim.path("healthcheck").path("test").toString()).contains("localhost:" + simPort);
        assertEquals(optionDefault("sim", "--sim-model"), ComposeFile.environment(gen).get("CAPSTREAM_MODEL"),
                "the default model is the one the simulated engine serves");
    }
}
