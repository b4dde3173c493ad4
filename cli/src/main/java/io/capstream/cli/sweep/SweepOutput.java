package io.capstream.cli.sweep;

import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.report.SweepJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The output directory of {@code capstream sweep} ({@code --output-dir}, default
 * {@code capstream-sweep-<sweep id>}): one report per step ({@code <run id>.json}),
 * {@code sweep.json} (the curve's JSON, {@link SweepJson#toJson}) and {@code sweep.csv}
 * ({@link SweepJson#toCsv}). Checked before anything is sent, created when the sweep starts.
 */
public final class SweepOutput {
    /** The curve's JSON file in the output directory. */
    public static final String SWEEP_JSON = "sweep.json";
    /** The curve's CSV file in the output directory. */
    public static final String SWEEP_CSV = "sweep.csv";

    private final Path dir;

    /** @param dir the output directory; not null */
    public SweepOutput(Path dir) {
        this.dir = dir;
    }

    /** @return the directory */
    public Path dir() {
        return dir;
    }

    /**
     * @return the files the sweep writes under fixed names ({@value #SWEEP_JSON}, {@value #SWEEP_CSV}), which
     *     {@code --html}/{@code --csv} may not replace
     */
    public VisualOutputOptions.Taken[] taken() {
        return new VisualOutputOptions.Taken[] {
            new VisualOutputOptions.Taken(dir.resolve(SWEEP_JSON), "the sweep's " + SWEEP_JSON),
            new VisualOutputOptions.Taken(dir.resolve(SWEEP_CSV), "the sweep's " + SWEEP_CSV)};
    }

    /**
     * Checks, without creating anything, that the directory exists or can be created and that files
     * can be created in it (tried with a temporary file in the nearest existing directory).
     *
     * @return a usage error message ({@code --output-dir: ...}), or null when the directory will do
     */
    public String check() {
        Path p = dir.toAbsolutePath();
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p)) {
            return "--output-dir: " + p + " exists and is not a directory";
        }
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            return "--output-dir: cannot create " + p + " (" + existing + " is not a directory)";
        }
        try {
            Path probe = Files.createTempFile(existing, ".capstream-output-check-", ".tmp");
            Files.delete(probe);
        } catch (IOException | RuntimeException e) {
            return "--output-dir: cannot create files in " + existing + " ("
                    + (e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage()) + ")";
        }
        return null;
    }

    /**
     * Creates the directory (and its parents) when missing.
     *
     * @throws IOException when it cannot be created
     */
    public void create() throws IOException {
        Files.createDirectories(dir);
    }

    /**
     * @param runId a step's run id
     * @return the step's report file, {@code DIR/<run id>.json}
     */
    public Path report(String runId) {
        return dir.resolve(runId + ".json");
    }

    /**
     * Writes {@code sweep.json} and {@code sweep.csv}, each atomically.
     *
     * @param curve the sweep's curve; not null
     * @throws IOException on I/O failure
     */
    public void writeCurve(SweepCurve curve) throws IOException {
        writeCurve(curve, null);
    }

    /**
     * Writes {@code sweep.json} (with {@code auto} under {@value AutoRange#JSON_KEY} when given) and
     * {@code sweep.csv}, each atomically.
     *
     * @param curve the sweep's curve; not null
     * @param auto  what {@code --rate auto} measured and chose ({@link AutoRange#toJson}), or null
     * @throws IOException on I/O failure
     */
    public void writeCurve(SweepCurve curve, com.fasterxml.jackson.databind.JsonNode auto) throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode json = SweepJson.toJson(curve);
        if (auto != null) {
            json.set(AutoRange.JSON_KEY, auto);
        }
        ArtifactJson.writeAtomically(dir.resolve(SWEEP_JSON), json);
        ArtifactJson.writeAtomically(dir.resolve(SWEEP_CSV), SweepJson.toCsv(curve));
    }
}
