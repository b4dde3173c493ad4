package io.capstream.schemas.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one redaction used wherever a URL or a server's message enters events, reports or the console (item 5). */
class RedactionTest {
    @Test
    void userInfoInUrlsIsMasked() {
        assertEquals("http://***@127.0.0.1:8000/v1", Redaction.urls("http://user:secret@127.0.0.1:8000/v1"));
        assertEquals("https://***@h/v1", Redaction.urls("https://token@h/v1"));
        assertEquals("https://***@h/v1", Redaction.urls("https://user:p@ss@h/v1"), "a raw @ in the password");
        assertEquals("call http://***@a/x and https://***@b:1/y failed",
                Redaction.urls("call http://u:p@a/x and https://v:q@b:1/y failed"));
        assertEquals("http://h:1/v1?mail=a@b", Redaction.urls("http://h:1/v1?mail=a@b"), "no userinfo");
        assertEquals("http://***@h/v1", Redaction.urls(Redaction.urls("http://u:p@h/v1")), "idempotent");
        assertEquals("mail bob@example.com", Redaction.urls("mail bob@example.com"));
        assertNull(Redaction.urls(null));
    }

    /** A fresh user's passwords with {@code #}, {@code /} and a blank were shown by {@link Redaction#urls}. */
    @Test
    void oneUrlAsGivenIsMaskedUpToItsLastAt() {
        assertEquals("http://***@127.0.0.1:1/v1", Redaction.url("http://u:p#wSECRET@127.0.0.1:1/v1"), "#");
        assertEquals("http://***@127.0.0.1:1/v1", Redaction.url("http://u:12/wSECRET@127.0.0.1:1/v1"), "/");
        assertEquals("http://***@127.0.0.1:1/v1", Redaction.url("http://u:pw SECRET6@127.0.0.1:1/v1"), "blank");
        assertEquals("http://***@h/v1", Redaction.url("http://u:p@ss@h/v1"), "a raw @");
        assertEquals("https://***@h:8/v1", Redaction.url("https://token@h:8/v1"), "a token");
        assertEquals("http://h:1/v1", Redaction.url("http://h:1/v1"), "no user-info");
        assertEquals("h:1/v1", Redaction.url("h:1/v1"), "no scheme");
        assertEquals("http://***@h/v1", Redaction.url(Redaction.url("http://u:p#x@h/v1")), "idempotent");
        assertNull(Redaction.url(null));
        assertEquals("http://u:p#wSECRET@127.0.0.1:1/v1", Redaction.urls("http://u:p#wSECRET@127.0.0.1:1/v1"),
                "what urls() leaves of such a value (text, not one URL): why url() exists");
    }

    @Test
    void secretValuesAreMaskedInAnyText() {
        String key = "sk-abcdef0123456789";
        assertEquals("HTTP Error 401: Unauthorized: Incorrect API key provided: ***. You can find your key at ...",
                Redaction.secrets("HTTP Error 401: Unauthorized: Incorrect API key provided: " + key
                        + ". You can find your key at ...", List.of(key), false));
        assertEquals("*** and *** again", Redaction.secrets(key + " and " + key + " again", List.of(key), false));
        assertEquals("Bearer ***", Redaction.secrets("Bearer " + key, List.of("sk-abc", key), false), "longest first");
        assertEquals("short: ab", Redaction.secrets("short: ab", List.of("ab"), false), "too short to be masked");
        assertEquals("none", Redaction.secrets("none", java.util.Arrays.asList(null, ""), false));
        assertNull(Redaction.secrets(null, List.of(key), false));
    }

    @Test
    void aSecretCutOffAtTheEndOfAShortenedMessageIsMaskedToo() {
        String key = "sk-abcdef0123456789";
        assertEquals("provided: ***", Redaction.secrets("provided: sk-abcdef01", List.of(key), true));
        assertEquals("provided: sk-abcdef01", Redaction.secrets("provided: sk-abcdef01", List.of(key), false));
        assertEquals("ends with sk-", Redaction.secrets("ends with sk-", List.of(key), true), "3 characters reveal nothing");
    }
}
