package io.capstream.cli.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * Headless Chromium driven through chromedriver, for checking generated pages in a real browser:
 * Debian's {@code chromium} and {@code chromium-driver} ({@code /usr/bin/chromium},
 * {@code /usr/bin/chromedriver}; other paths through the system properties {@code capstream.chromium}
 * and {@code capstream.chromedriver}). Both executables are given explicitly, so Selenium Manager is
 * never run (it is what would download drivers and send usage statistics). Each instance has its own
 * temporary profile directory, deleted by {@link #close()}, and a fixed 1280x900 window.
 *
 * <p>Tests call {@code Assumptions.assumeTrue(HeadlessChromium.available(), ...)} first, so that they
 * are skipped, not failed, where Chromium is not installed.
 */
public final class HeadlessChromium implements AutoCloseable {
    /** The browser executable (Debian's launcher script). */
    public static final Path CHROMIUM = Path.of(System.getProperty("capstream.chromium", "/usr/bin/chromium"));
    /** The matching chromedriver executable. */
    public static final Path CHROMEDRIVER = Path.of(System.getProperty("capstream.chromedriver", "/usr/bin/chromedriver"));
    /** Where screenshots go (relative to the module directory, the tests' working directory). */
    public static final Path SCREENSHOTS = Path.of(System.getProperty("capstream.screenshots.dir",
            "target/browser-screenshots"));
    /** How long {@link #open(URI, String)} waits for every chart to have data points. */
    public static final Duration CHART_TIMEOUT = Duration.ofSeconds(30);
    /** URL schemes that never leave the browser: inline content and the browser's own pages. */
    private static final List<String> INLINE_SCHEMES = List.of("data:", "blob:", "about:", "chrome:",
            "chrome-untrusted:", "devtools:");
    /** The tallest screenshot taken, px (longer pages are cut). */
    private static final int MAX_SCREENSHOT_HEIGHT_PX = 12_000;

    private static final String CHART_STATES = """
            return Array.from(document.querySelectorAll('.chart')).map(function (c) {
              var p = parseInt(c.getAttribute('data-points'), 10);
              return {id: c.getAttribute('data-chart') || '', points: isNaN(p) ? -1 : p,
                      canvases: c.querySelectorAll('canvas').length, svgs: c.querySelectorAll('svg').length};
            });""";
    private static final String CHARTS_DRAWN = "Array.from(document.querySelectorAll('.chart'))"
            + ".every(function (c) { return parseInt(c.getAttribute('data-points'), 10) > 0; })";

    private final ObjectMapper json = new ObjectMapper();
    private final Path profile;
    private final ChromeDriverService service;
    private final ChromeDriver driver;

    private HeadlessChromium(Path profile, ChromeDriverService service, ChromeDriver driver) {
        this.profile = profile;
        this.service = service;
        this.driver = driver;
    }

    /**
     * @return true when both executables exist and answer {@code --version} (within 20 s each)
     */
    public static boolean available() {
        return answersVersion(CHROMEDRIVER) && answersVersion(CHROMIUM);
    }

    private static boolean answersVersion(Path exe) {
        if (!Files.isExecutable(exe)) {
            return false;
        }
        try {
            Process p = new ProcessBuilder(exe.toString(), "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Starts chromedriver and a headless Chromium (new headless mode, no sandbox, no GPU, no
     * {@code /dev/shm}, no background networking) with the browser and performance logs enabled.
     *
     * @return the running browser; close it to stop both processes and delete the profile
     * @throws UncheckedIOException when the profile directory cannot be created
     * @throws org.openqa.selenium.WebDriverException when chromedriver or Chromium does not start
     */
    public static HeadlessChromium start() {
        Path profile;
        try {
            profile = Files.createTempDirectory("capstream-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .withSilent(true)
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900", "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions");
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL", LogType.PERFORMANCE, "ALL"));
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            try {
                driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
                // Chromium 150 opens its first tab on chrome://new-tab-page/; leave it before any page is checked,
                // or its late navigation and requests get mixed into the first check
                driver.get("about:blank");
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .until(() -> "about:blank".equals(driver.getCurrentUrl()));
            } catch (RuntimeException e) {
                driver.quit();
                throw e;
            }
            return new HeadlessChromium(profile, service, driver);
        } catch (RuntimeException e) {
            service.stop();
            deleteTree(profile);
            throw e;
        }
    }

    /**
     * Sets the size of the viewport the pages opened next are laid out in (DevTools
     * {@code Emulation.setDeviceMetricsOverride}, device scale 1, not mobile): {@code innerWidth} is then
     * exactly {@code widthPx}. Without it the window is 1280x900.
     *
     * @param widthPx  viewport width, CSS px (&gt; 0)
     * @param heightPx viewport height, CSS px (&gt; 0)
     */
    public void viewport(int widthPx, int heightPx) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", widthPx, "height", heightPx,
                "deviceScaleFactor", 1, "mobile", false));
    }

    /**
     * Runs a script in the page shown now (WebDriver {@code executeScript}: the script's {@code return} value
     * comes back as Boolean, Long, Double, String, List or Map).
     *
     * @param js the script body; not null
     * @return its return value, or null
     */
    public Object script(String js) {
        return driver.executeScript(Objects.requireNonNull(js, "js"));
    }

    /**
     * {@link #open(URI, String, String)} with no condition beyond the charts.
     *
     * @param uri  the page; not null
     * @param name the screenshot's name, {@code SCREENSHOTS/name.png}; not null
     * @return what the browser saw
     */
    public PageCheck open(URI uri, String name) {
        return open(uri, name, "true");
    }

    /**
     * Loads a page, waits up to {@link #CHART_TIMEOUT} until every {@code .chart} container has a
     * {@code data-points} attribute above 0 and {@code readyWhen} holds, then collects the page's
     * console errors, network requests, charts, DOM and a full-page screenshot. A timeout is not an
     * error: the result tells ({@link PageCheck#chartsReady()}, the charts' points).
     *
     * @param uri       the page ({@code file:} or {@code http:}); not null
     * @param name      the screenshot's name, {@code SCREENSHOTS/name.png}; not null
     * @param readyWhen a JavaScript expression that must also be true, e.g.
     *                  {@code document.querySelectorAll('.chart').length > 0}; not null
     * @return what the browser saw
     * @throws UncheckedIOException when the screenshot cannot be written
     * @throws IllegalStateException when the browser shows another page after loading (e.g. a redirect)
     */
    public PageCheck open(URI uri, String name, String readyWhen) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(readyWhen, "readyWhen");
        // the page before is unloaded first, then the logs drained: a live page left open (its refresh timer) would
        // otherwise log its failed fetches, to a server its test has stopped, between the drain and the load
        driver.get("about:blank");
        drainLogs();
        driver.get(uri.toString());
        String shown = driver.getCurrentUrl();
        if (shown == null || !withoutFragment(URI.create(shown)).equals(withoutFragment(uri))) {
            throw new IllegalStateException("the browser shows " + shown + " instead of " + uri);
        }
        String condition = "return (" + CHARTS_DRAWN + ") && Boolean(" + readyWhen + ");";
        boolean ready;
        try {
            Awaitility.await().atMost(CHART_TIMEOUT).pollInterval(Duration.ofMillis(100)).pollDelay(Duration.ZERO)
                    .until(() -> Boolean.TRUE.equals(driver.executeScript(condition)));
            ready = true;
        } catch (ConditionTimeoutException e) {
            ready = false;
        }
        List<PageCheck.ChartState> charts = charts();
        List<String> errors = consoleErrors();
        List<String> requests = networkRequests(uri);
        String html = driver.getPageSource();
        Path shot = screenshot(name);
        return new PageCheck(uri, driver.getTitle(), ready, charts, errors, requests, html, shot);
    }

    private void drainLogs() {
        driver.manage().logs().get(LogType.BROWSER);
        driver.manage().logs().get(LogType.PERFORMANCE);
    }

    @SuppressWarnings("unchecked")
    private List<PageCheck.ChartState> charts() {
        List<Map<String, Object>> raw = (List<Map<String, Object>>) driver.executeScript(CHART_STATES);
        return raw.stream().map(m -> new PageCheck.ChartState(String.valueOf(m.get("id")), number(m.get("points")),
                number(m.get("canvases")), number(m.get("svgs")))).toList();
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : -1;
    }

    private List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage).toList();
    }

    /** Network.requestWillBeSent URLs of the DevTools performance log that count as network loads. */
    private List<String> networkRequests(URI page) {
        Set<String> urls = new LinkedHashSet<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE).getAll()) {
            JsonNode message;
            try {
                message = json.readTree(entry.getMessage()).path("message");
            } catch (IOException e) {
                continue;
            }
            if ("Network.requestWillBeSent".equals(message.path("method").asText())) {
                String url = message.path("params").path("request").path("url").asText("");
                if (isNetworkLoad(page, url)) {
                    urls.add(url);
                }
            }
        }
        return new ArrayList<>(urls);
    }

    /**
     * @param page the page's own URI
     * @param url  a requested URL
     * @return true when the request leaves the page: for a {@code file:} page anything but the page
     *         itself, for an {@code http(s):} page another origin; inline ({@code data:}, {@code blob:},
     *         {@code about:}) and browser-internal ({@code chrome:}, ...) URLs never
     */
    static boolean isNetworkLoad(URI page, String url) {
        String lower = url.toLowerCase(java.util.Locale.ROOT);
        if (url.isEmpty() || INLINE_SCHEMES.stream().anyMatch(lower::startsWith)) {
            return false;
        }
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            return true;
        }
        if ("file".equalsIgnoreCase(page.getScheme())) {
            return !withoutFragment(target).equals(withoutFragment(page));
        }
        return !(Objects.equals(lowerOrNull(page.getScheme()), lowerOrNull(target.getScheme()))
                && Objects.equals(lowerOrNull(page.getHost()), lowerOrNull(target.getHost()))
                && port(page) == port(target));
    }

    private static String withoutFragment(URI u) {
        String s = u.toString();
        int hash = s.indexOf('#');
        return (hash < 0 ? s : s.substring(0, hash)).replace("file:///", "file:/");
    }

    private static String lowerOrNull(String s) {
        return s == null ? null : s.toLowerCase(java.util.Locale.ROOT);
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    /** Full-page PNG through DevTools' Page.captureScreenshot (beyond the viewport). */
    private Path screenshot(String name) {
        Map<String, Object> metrics = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
        long width = Math.max(1, (long) Math.ceil(((Number) size.get("width")).doubleValue()));
        long height = Math.min(MAX_SCREENSHOT_HEIGHT_PX,
                Math.max(1, (long) Math.ceil(((Number) size.get("height")).doubleValue())));
        Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png",
                "captureBeyondViewport", true,
                "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
        byte[] png = Base64.getDecoder().decode((String) shot.get("data"));
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, png);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Quits the browser, stops chromedriver and deletes the profile directory. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> deleteTree(profile));
        }
    }

    /** @return true when the directory is gone (a browser process may still be writing to it) */
    private static boolean deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
        return !Files.exists(dir);
    }
}
