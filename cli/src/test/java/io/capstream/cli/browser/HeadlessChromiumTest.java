package io.capstream.cli.browser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** Which requests {@link HeadlessChromium} counts as network loads (no browser needed). */
class HeadlessChromiumTest {
    @Test
    void aFilePageLoadsFromTheNetworkWhateverIsNotItselfOrInline() {
        URI page = URI.create("file:///tmp/run.html");
        assertFalse(HeadlessChromium.isNetworkLoad(page, "file:///tmp/run.html"));
        assertFalse(HeadlessChromium.isNetworkLoad(page, "file:///tmp/run.html#ttft"));
        assertFalse(HeadlessChromium.isNetworkLoad(page, "data:image/png;base64,AAAA"));
        assertFalse(HeadlessChromium.isNetworkLoad(page, "blob:null/1234"));
        assertFalse(HeadlessChromium.isNetworkLoad(page, "chrome://new-tab-page/app.js"), "the browser's own pages");
        assertFalse(HeadlessChromium.isNetworkLoad(page, "chrome-untrusted://new-tab-page/one-google-bar"));
        assertTrue(HeadlessChromium.isNetworkLoad(page, "file:///tmp/uplot.js"));
        assertTrue(HeadlessChromium.isNetworkLoad(page, "https://cdn.example.com/uplot.js"));
    }

    @Test
    void anHttpPageLoadsFromTheNetworkOnlyFromOtherOrigins() {
        URI page = URI.create("http://127.0.0.1:8080/");
        assertFalse(HeadlessChromium.isNetworkLoad(page, "http://127.0.0.1:8080/api/runs"));
        assertFalse(HeadlessChromium.isNetworkLoad(page, "http://127.0.0.1:8080/runs/r-1"));
        assertTrue(HeadlessChromium.isNetworkLoad(page, "http://127.0.0.1:8081/api/runs"));
        assertTrue(HeadlessChromium.isNetworkLoad(page, "http://localhost:8080/api/runs"));
        assertTrue(HeadlessChromium.isNetworkLoad(page, "https://127.0.0.1:8080/"));
        assertTrue(HeadlessChromium.isNetworkLoad(URI.create("http://127.0.0.1/"), "http://127.0.0.1:8080/"));
        assertFalse(HeadlessChromium.isNetworkLoad(URI.create("http://127.0.0.1/"), "http://127.0.0.1:80/x"));
    }
}
