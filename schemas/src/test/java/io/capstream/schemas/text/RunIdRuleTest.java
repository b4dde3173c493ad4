package io.capstream.schemas.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What a run id may contain (item 7): it names a file, a Kafka key and a report. */
class RunIdRuleTest {
    @Test
    void ordinaryIdsPass() {
        for (String ok : new String[] {"benchmark-20261130T102644Z", "benchmark-20261130T102644Z-a", "my run 1",
                "vllm:h100/x".replace("/", "_"), "x".repeat(RunIdRule.MAX_LENGTH), "ünïcødé"}) {
            assertNull(RunIdRule.problem(ok), ok);
        }
    }

    @Test
    void slashesControlCharactersAndAbsurdLengthsAreRejected() {
        assertEquals("must not contain '/' (it names the report file)", RunIdRule.problem("a/b"));
        assertEquals("must not contain '\\' (it names the report file)", RunIdRule.problem("a\\b"));
        assertEquals("must not contain control characters (U+000A at index 1)", RunIdRule.problem("a\nb"));
        assertEquals("must not contain control characters (U+001B at index 0)", RunIdRule.problem("\u001b[31m"));
        assertEquals("must not contain control characters (U+2028 at index 2)", RunIdRule.problem("ab\u2028"));
        assertEquals("is 201 characters long, at most 200", RunIdRule.problem("x".repeat(201)));
        assertEquals("must not be blank", RunIdRule.problem("  "));
        assertNull(RunIdRule.problem(null));
    }
}
