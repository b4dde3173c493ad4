package io.capstream.cli.report;

import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes reports as artifact files (the report's {@code artifact_json}, atomically, spec §9.1). */
public final class ReportFiles {
    private ReportFiles() {
    }

    /**
     * Writes {@code report.artifact_json} to {@code dir/fileName} through a temp file and rename.
     *
     * @param dir      output directory (created when missing)
     * @param fileName file name
     * @param report   the report
     * @return the written path
     * @throws IOException when the file cannot be written
     */
    public static Path write(Path dir, String fileName, BenchmarkReport report) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(fileName);
        ArtifactJson.writeAtomically(target, report.getArtifactJson());
        return target;
    }
}
