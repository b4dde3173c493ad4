package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * Turns an {@code anvil-serving.benchmark/v1} artifact into the run events that would have
 * produced it, or a summary-only report for rowless artifacts. Pure apart from reading the file.
 */
public final class ArtifactImporter {
    private ArtifactImporter() {
    }

    /**
     * Reads and plans one artifact file.
     *
     * @param file the artifact
     * @return the plan
     * @throws ArtifactValidationException when the file cannot be read, is not JSON or breaks a rule
     */
    public static ImportPlan plan(Path file) throws ArtifactValidationException {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }

    /**
     * Plans one artifact given as text.
     *
     * @param text the file's text
     * @param fileName name used in events, provenance and error messages
     * @return the plan
     * @throws ArtifactValidationException when the text is not JSON or breaks a rule
     */
    public static ImportPlan plan(String text, String fileName) throws ArtifactValidationException {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }

    /**
     * Plans one parsed artifact.
     *
     * @param artifact parsed tree
     * @param fileName name used in events, provenance and error messages
     * @param originalText the file's exact text (kept as artifact_json of summary-only reports);
     *     null = re-serialise the tree
     * @return the plan
     * @throws ArtifactValidationException when the artifact breaks a rule
     */
    public static ImportPlan plan(JsonNode artifact, String fileName, String originalText)
            throws ArtifactValidationException {
        throw new UnsupportedOperationException("work in progress (H2a)");
    }
}
