package io.capstream.schemas.text;

/**
 * How a hint suggests a base URL to try ({@code try --base-url http://host:8000/v1}) without printing a secret and
 * without printing something that does not work: a URL with user-info is shown masked ({@code http://***@host/v1},
 * {@link Redaction#urls}), and that masked form, pasted back, would send {@code ***} as the credentials. So when the
 * suggested URL carries masked user-info the hint names the change to make to the user's own {@code --base-url}
 * instead ({@code your --base-url with /v1 appended (http://***@host/v1; its credentials are not printed)}); without
 * user-info it is the URL itself, as before. A command line to copy whole uses {@link #BASE_URL_VARIABLE} instead
 * (every command reads its {@code --base-url} default from it). Stateless.
 */
public final class BaseUrlHints {
    /** The environment variable every command reads {@code --base-url} from when the flag is not given. */
    public static final String BASE_URL_VARIABLE = "CAPSTREAM_BASE_URL";

    private static final String MASKED_USER_INFO = "://" + Redaction.MASK + "@";

    private BaseUrlHints() {
    }

    /**
     * @param shownUrl a URL as the console shows it (user-info already masked by {@link Redaction#urls}); not null
     * @return whether it carries masked user-info, so that it cannot be used as printed
     */
    public static boolean masked(String shownUrl) {
        return shownUrl.contains(MASKED_USER_INFO);
    }

    /**
     * @param plain    the hint's text when the URL holds no secret (e.g. {@code --base-url http://host/v1})
     * @param shownUrl the suggested URL as the console shows it (user-info masked)
     * @param change   what to change in the user's own base URL, e.g. {@code with /v1 appended}
     * @return {@code plain}, or, when {@code shownUrl} carries masked user-info, {@code your --base-url <change>
     *         (<shownUrl>; its credentials are not printed)}
     */
    public static String suggest(String plain, String shownUrl, String change) {
        return masked(shownUrl) ? "your --base-url " + change + " (" + shownUrl + "; its credentials are not printed)"
                : plain;
    }

    /**
     * @param shownUrl the base URL as the console shows it (user-info masked); not null
     * @return the {@code --base-url} value of a command line to copy: the URL itself, or, when it carries masked
     *         user-info, {@code "$CAPSTREAM_BASE_URL"} (quoted for the shell)
     */
    public static String commandLineValue(String shownUrl) {
        return masked(shownUrl) ? "\"$" + BASE_URL_VARIABLE + "\"" : shownUrl;
    }
}
