package io.capstream.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code import} takes the run id from the artifact: one that cannot name a file is an invalid file (item 7). */
class ImportRunIdTest {
    @Test
    void anArtifactWhoseRunIdHasASlashIsInvalidAndNothingIsPublished(@TempDir Path tmp) throws Exception {
        ObjectNode a = (ObjectNode) ArtifactJson.read(SharedDir.seed());
        a.put("run_id", "team/run-1");
        Path file = tmp.resolve("slash.json");
        ArtifactJson.writeAtomically(file, ArtifactJson.write(a));
        Path outDir = tmp.resolve("out");
        String[] args = {"import", file.toString(), "--output-dir", outDir.toString()};
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(args, Map.of()));
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(new StringWriter(), true));
        assertEquals(1, cmd.execute(args));
        assertEquals(List.of("slash.json: run_id: must not contain '/' (it names the report file)",
                "0 of 1 matched (1 invalid)"), out.toString().lines().toList());
        assertFalse(Files.exists(outDir), "no report written, no pipeline started");
    }
}
