package io.capstream.schemas.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file that cannot be a report is refused in capstream's words (issue 27.6: "Input length = 3"). */
class ArtifactJsonReadTest {
    @TempDir
    Path tmp;

    private String error(String name, byte[] content) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, content);
        return assertThrows(IOException.class, () -> ArtifactJson.read(f)).getMessage();
    }

    @Test
    void binaryDeepAndBrokenFilesSayWhatIsWrong() throws Exception {
        assertEquals("not UTF-8 text (a binary file?)", error("bin.json", new byte[] {'{', (byte) 0xC3, (byte) 0x28, 0}));
        assertEquals("nested deeper than 1,000 levels (the JSON reader's limit)",
                error("deep.json", ("[".repeat(2000) + "]".repeat(2000)).getBytes()));
        String cut = error("cut.json", "{\"a\":\n".getBytes());
        org.junit.jupiter.api.Assertions.assertTrue(cut.startsWith("line 2: not valid JSON (Unexpected end-of-input"),
                cut);
    }
}
