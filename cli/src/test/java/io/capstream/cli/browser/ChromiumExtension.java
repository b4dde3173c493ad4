package io.capstream.cli.browser;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One headless Chromium per test class: {@code @RegisterExtension static final ChromiumExtension CHROMIUM = new
 * ChromiumExtension();}. Before the class's tests it skips them (an assumption, not a failure) when Chromium or
 * chromedriver is not installed, else starts the browser; after them it closes it.
 */
final class ChromiumExtension implements BeforeAllCallback, AfterAllCallback {
    private HeadlessChromium browser;

    @Override
    public void beforeAll(ExtensionContext context) {
        Assumptions.assumeTrue(HeadlessChromium.available(),
                "headless Chromium not installed (" + HeadlessChromium.CHROMIUM + ", " + HeadlessChromium.CHROMEDRIVER + ")");
        browser = HeadlessChromium.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    /** @return the running browser; only during the class's tests */
    HeadlessChromium browser() {
        if (browser == null) {
            throw new IllegalStateException("the browser runs only during the tests of the class");
        }
        return browser;
    }
}
