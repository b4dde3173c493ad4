package io.capstream.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.html.RunPage;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the visual outputs of one run's report ({@code --html}, {@code --csv}): the run's HTML page
 * ({@link RunPage#render}) and its per-request CSV ({@link RequestCsv}), each atomically, missing
 * parent directories created.
 */
public final class RunViews {
    private RunViews() {
    }

    /**
     * @param artifact the run's report artifact; not null
     * @param html     the HTML file, or null for none
     * @param csv      the CSV file, or null for none
     * @return the lines to print, {@code html: PATH} then {@code csv: PATH}, for the files written
     * @throws IOException when a file cannot be written (the ones before it are written)
     */
    public static List<String> write(JsonNode artifact, Path html, Path csv) throws IOException {
        List<String> lines = new ArrayList<>();
        if (html != null) {
            writeFile(html, RunPage.render(artifact));
            lines.add("html: " + html);
        }
        if (csv != null) {
            writeFile(csv, RequestCsv.render(artifact));
            lines.add("csv: " + csv);
        }
        return lines;
    }

    /**
     * @param artifactJson the report's {@code artifact_json} text
     * @param html         the HTML file, or null
     * @param csv          the CSV file, or null
     * @return as {@link #write(JsonNode, Path, Path)}
     * @throws IOException when the text is not JSON or a file cannot be written
     */
    public static List<String> write(String artifactJson, Path html, Path csv) throws IOException {
        if (html == null && csv == null) {
            return List.of();
        }
        return write(ArtifactJson.parse(artifactJson), html, csv);
    }

    /**
     * Writes a text file atomically, creating its parent directories when missing.
     *
     * @param file the file; not null
     * @param text its content (UTF-8)
     * @throws IOException when it cannot be written
     */
    public static void writeFile(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ArtifactJson.writeAtomically(file, text);
    }
}
