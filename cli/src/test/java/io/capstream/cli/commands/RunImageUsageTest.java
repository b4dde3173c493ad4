package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad image options of {@code run} (issue 30): one usage-error line, exit 2, nothing sent. */
class RunImageUsageTest {
    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    private void usageError(String expected, String... args) {
        String[] all = new String[args.length + 5];
        all[0] = "run";
        all[1] = "--base-url";
        all[2] = target.baseUrl();
        all[3] = "--model";
        all[4] = "m";
        System.arraycopy(args, 0, all, 5, args.length);
        CliRun r = run(all);
        assertThat(r.code()).as("exit code of %s; stderr: %s", String.join(" ", args), r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr of %s", String.join(" ", args)).containsExactly("capstream run: " + expected);
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(30)
    void aSizeOfZeroIsAUsageError() {
        usageError("--image-size must be WxH with both at least 1 pixel, got 0x512",
                "--images", "1", "--image-size", "0x512");
    }

    @Test
    @Timeout(30)
    void aSizeThatIsNotWxHIsAUsageError() {
        usageError("--image-size must be WxH[,WxH...] in whole pixels, e.g. 1024x1024 or 512x512,1024x768, got"
                + " '1024*1024'", "--images", "1", "--image-size", "1024*1024");
        usageError("--image-size sides must be at most 8192 pixels, got 9000x10", "--images", "1", "--image-size",
                "9000x10");
    }

    @Test
    @Timeout(30)
    void imagesNeedAnApiWithUserMessagesAndSynthesizedPrompts() {
        usageError("--images applies to --endpoint chat, responses or messages (completions requests have no user"
                + " messages)", "--images", "1", "--endpoint", "completions");
        usageError("--images must be >= 0, got -1", "--images", "-1");
        usageError("--image-format must be png or jpeg, got 'gif'", "--images", "1", "--image-format", "gif");
        usageError("--image-size and --image-format need --images N (images per user message)",
                "--image-size", "64x64");
    }
}
