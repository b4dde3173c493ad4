package io.capstream.schemas.text;

import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.Locale;

/**
 * Checks of the {@code http(s)://} URLs capstream connects to ({@code --base-url},
 * {@code --schema-registry-url}) before anything is sent, and the split of a URL's
 * {@code user:password@} part from the address the request goes to. Stateless.
 *
 * <p>A URL passes when it parses as a URI and as a {@link URL} (what the HTTP clients use), has
 * the scheme {@code http} or {@code https}, a host (a bracketed IPv6 literal, or a name, which may
 * contain {@code _} as container names do), a port in 1..65535 when one is given, and no query or
 * fragment (paths such as {@code /chat/completions} are appended to it).
 */
public final class HttpUrls {
    private HttpUrls() {
    }

    /**
     * @param url the URL as given (surrounding whitespace ignored); may be null
     * @return what is wrong with it, as a phrase to follow the option name (e.g. {@code "has port
     *         70000, outside 1..65535"}), or null when it is usable; never contains the URL itself
     */
    public static String problem(String url) {
        if (url == null || url.isBlank()) {
            return "is empty";
        }
        String u = url.strip();
        String lower = u.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
            return "must start with http:// or https://";
        }
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            return "is not a valid URL (" + e.getReason() + (e.getIndex() >= 0 ? " at index " + e.getIndex() : "") + ")";
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            return "has no host";
        }
        String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
        String host;
        String port;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            host = hostPort.substring(1, Math.max(1, close));
            String rest = hostPort.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                return "is not a valid URL (unexpected '" + rest + "' after the IPv6 address)";
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = hostPort.lastIndexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            port = colon < 0 ? null : hostPort.substring(colon + 1);
        }
        if (host.isEmpty()) {
            return "has no host";
        }
        if (port != null) {
            if (port.isEmpty()) {
                return "has an empty port";
            }
            if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return "has port '" + port + "', not a number";
            }
            long p = port.length() > 6 ? Long.MAX_VALUE : Long.parseLong(port);
            if (p < 1 || p > 65535) {
                return "has port " + (port.length() > 6 ? port.substring(0, 6) + "..." : port) + ", outside 1..65535";
            }
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return "must not have a query or fragment (paths are appended to it)";
        }
        try {
            new URL(u);
        } catch (MalformedURLException | IllegalArgumentException e) {
            return "is not a valid URL (" + e.getMessage() + ")";
        }
        return null;
    }

    /**
     * @param url a URL that passed {@link #problem(String)}
     * @return its raw (still percent-encoded) {@code user[:password]} part, or null when it has none
     */
    public static String userInfo(String url) {
        String authority = authority(url);
        int at = authority == null ? -1 : authority.lastIndexOf('@');
        return at < 0 ? null : authority.substring(0, at);
    }

    /**
     * @param url a URL that passed {@link #problem(String)}
     * @return the same URL without its {@code user[:password]@} part (the address requests go to;
     *         the credentials travel in an {@code Authorization} header instead)
     */
    public static String withoutUserInfo(String url) {
        String info = userInfo(url);
        if (info == null) {
            return url.strip();
        }
        String u = url.strip();
        int start = u.indexOf("://") + 3;
        return u.substring(0, start) + u.substring(start + info.length() + 1);
    }

    private static String authority(String url) {
        if (url == null) {
            return null;
        }
        try {
            return new URI(url.strip()).getRawAuthority();
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
