package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

public class PromptBuilderTest {
    /**
     * @param s text
     * @return hex SHA-256 of its UTF-8 bytes
     * @throws Exception never in practice
     */
    public static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @CsvSource({
        "8000, 4096, 0, 12288, 3dd6475e918b2d66e969e0e0344f93f706a174fcdd74cb6b01b062bdf99ad5fd",
        "8000, 4096, 9, 12288, 0651c4799c0ec04dca36cff08b5ca2aab150e5e986d8230bdcb272e708337df3",
        "8000, 16000, 3, 48000, 4b0665fe1f4729f9552f973f86e6daf9db22d3ae79dc27b5423c01cfdd144eaf",
        "8000, 32768, 0, 98304, 4923d36fb4e657063b8519a25a95474a13a07cea9589d4a468de3d602f8a988e",
        "100, 1024, 0, 3072, 488582902e9142416cc20887fa63cd71afd6f84716224ecf2c5f336b5804e3e7",
        "0, 32, 0, 96, 9fd1fa76aa25e3632fff0cfcf77864356e75d8b1d526c812e0486f320287f2df",
    })
    void specVectors(int shared, int planned, int i, int len, String sha) throws Exception {
        String p = new PromptBuilder(shared).prompt(i, planned);
        assertEquals(len, p.length());
        assertEquals(sha, sha256(p));
    }

    @Test
    void sharedPrefixVector() throws Exception {
        String s = new PromptBuilder(8000).sharedPrefix();
        assertEquals(24000, s.length());
        assertEquals("d025b1bac03fd7002db6aca9e849fa72ec370789f694a392501d57edb8d20ec6", sha256(s));
        assertEquals("", new PromptBuilder(0).sharedPrefix());
    }

    @Test
    void tailAndTooSmall() {
        assertEquals(46, PromptBuilder.tail(0).length());
        assertThrows(PromptBuilder.PromptTooSmallException.class, () -> new PromptBuilder(0).prompt(0, 15));
        assertThrows(PromptBuilder.PromptTooSmallException.class, () -> new PromptBuilder(0).prompt(100, 16));
    }

    @Test
    void promptsAreAsciiAndEndWithTail() throws Exception {
        String p = new PromptBuilder(8000).prompt(77, 16000);
        assertThat(p).endsWith("\n# request 77: summarize the above in one line.");
        assertTrue(p.chars().allMatch(c -> c < 128));
    }

    @Test
    void aSaltReplacesTheFirstCharactersAndKeepsTheLengthTheTailAndTheSharingWithinARun() throws Exception {
        String salt = "# run 0123456789ab\n";
        PromptBuilder plain = new PromptBuilder(8000);
        PromptBuilder a = new PromptBuilder(8000, salt);
        PromptBuilder b = new PromptBuilder(8000, "# run ba9876543210\n");
        String p0 = plain.prompt(3, 4096);
        String s0 = a.prompt(3, 4096);
        org.junit.jupiter.api.Assertions.assertEquals(salt + p0.substring(salt.length()), s0,
                "the salt replaces the first characters, the rest is the reference's prompt");
        org.junit.jupiter.api.Assertions.assertTrue(s0.endsWith(PromptBuilder.tail(3)), s0.substring(s0.length() - 60));
        String s9 = a.prompt(9, 4096);
        org.junit.jupiter.api.Assertions.assertEquals(s0.substring(0, 12000), s9.substring(0, 12000),
                "requests of one run still share their prefix");
        String other = b.prompt(3, 4096);
        org.junit.jupiter.api.Assertions.assertNotEquals(s0.substring(0, 256), other.substring(0, 256),
                "another run's first 256-char block differs, so no cached prefix is shared");
        // a prompt with little room before its tail keeps its tail and takes what fits of the salt
        String small = new PromptBuilder(0, salt).prompt(0, 32);
        org.junit.jupiter.api.Assertions.assertEquals(96, small.length(), small);
        org.junit.jupiter.api.Assertions.assertTrue(small.startsWith(salt) && small.endsWith(PromptBuilder.tail(0)),
                small);
        String tiny = new PromptBuilder(0, "# a very long salt that does not fit before the tail at all\n").prompt(0, 32);
        org.junit.jupiter.api.Assertions.assertEquals(96, tiny.length(), tiny);
        org.junit.jupiter.api.Assertions.assertTrue(tiny.endsWith(PromptBuilder.tail(0)), tiny);
        org.junit.jupiter.api.Assertions.assertEquals(p0, new PromptBuilder(8000, null).prompt(3, 4096),
                "no salt: the reference's prompt");
    }

    @Test
    void aRandomSaltIsALabelledLineOfTwelveHexDigits() {
        String salt = PromptBuilder.randomSalt("run", new java.util.SplittableRandom(1));
        org.junit.jupiter.api.Assertions.assertTrue(salt.matches("# run [0-9a-f]{12}\n"), salt);
        org.junit.jupiter.api.Assertions.assertNotEquals(salt,
                PromptBuilder.randomSalt("run", new java.util.SplittableRandom(2)));
    }
}
