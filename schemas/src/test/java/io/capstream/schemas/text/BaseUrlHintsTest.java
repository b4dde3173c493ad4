package io.capstream.schemas.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Fresh-user pass 4: a suggested base URL is either usable as printed or names the change to the user's own. */
class BaseUrlHintsTest {

    @Test
    void aUrlWithoutUserInfoIsSuggestedAsItIs() {
        assertThat(BaseUrlHints.suggest("--base-url http://h:8000/v1", "http://h:8000/v1", "with /v1 appended"))
                .as("plain URL").isEqualTo("--base-url http://h:8000/v1");
        assertThat(BaseUrlHints.commandLineValue("http://h:8000/v1")).as("command-line value")
                .isEqualTo("http://h:8000/v1");
    }

    @Test
    void aMaskedUrlIsNeverOfferedAsUsable() {
        String masked = Redaction.urls("http://user:Pw-991@h:8000/v1");
        assertThat(BaseUrlHints.masked(masked)).as("masked? %s", masked).isTrue();
        assertThat(BaseUrlHints.suggest("--base-url " + masked, masked, "with /v1 appended")).as("suggestion")
                .isEqualTo("your --base-url with /v1 appended (http://***@h:8000/v1; its credentials are not printed)")
                .doesNotContain("Pw-991");
        assertThat(BaseUrlHints.commandLineValue(masked)).as("command-line value")
                .isEqualTo("\"$CAPSTREAM_BASE_URL\"");
    }
}
