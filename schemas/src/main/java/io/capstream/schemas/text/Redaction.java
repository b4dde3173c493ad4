package io.capstream.schemas.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The redaction applied wherever a URL or a server's message enters capstream's events, reports
 * or console output: the {@code user:password@} part of URLs becomes {@code ***@} (the URL stays a
 * valid URL, e.g. {@code http://***@host:8000/v1}), and known secret values (the endpoint's API key,
 * the password of the base URL) become {@code ***} in any text, e.g. an error body that echoes
 * the key. Stateless.
 */
public final class Redaction {
    /** What a secret is replaced with. */
    public static final String MASK = "***";
    /**
     * Shortest secret that is masked: shorter values would mask ordinary words, and 3 characters of
     * a key reveal nothing useful. Also the shortest start of a secret masked at the end of a cut text.
     */
    public static final int MIN_SECRET_LENGTH = 4;

    /** {@code scheme://userinfo@}: everything up to the last {@code @} before the path, query, fragment or a blank. */
    private static final Pattern URL_USERINFO = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\\s]*@");

    private Redaction() {
    }

    /**
     * @param text any text (a URL, an error message, a log line); may be null
     * @return the text with the userinfo of every URL in it replaced by {@code ***}; null stays null
     */
    public static String urls(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        return URL_USERINFO.matcher(text).replaceAll("$1" + Matcher.quoteReplacement(MASK) + "@");
    }

    /**
     * The redaction of one URL as a user gave it (an option's value, which may not even parse): everything between
     * {@code ://} and the last {@code @} is the user-info, whatever it holds. A password with a {@code #}, {@code /},
     * {@code ?} or a blank is not a valid URL's user-info, so {@link #urls(String)}, which must find URLs inside
     * free text, stops at those characters and showed the rest of it (a fresh user's {@code --base-url
     * 'http://u:p#wSECRET@host/v1'} was printed whole in its error message). An {@code @} in a path or query is
     * taken for the end of user-info too: such a URL is shown with less, never with a secret.
     *
     * @param url one URL (surrounding blanks kept); may be null
     * @return the URL with everything between its {@code ://} and its last {@code @} replaced by {@value #MASK};
     *         text without {@code ://} goes through {@link #urls(String)}; null stays null
     */
    public static String url(String url) {
        if (url == null) {
            return null;
        }
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (scheme < 0 || at < scheme + 3) {
            return urls(url);
        }
        return url.substring(0, scheme + 3) + MASK + url.substring(at);
    }

    /**
     * @param text    any text; may be null
     * @param secrets values to mask (null, empty and values shorter than {@value #MIN_SECRET_LENGTH}
     *                characters are ignored)
     * @param cut     whether the text may have been cut short (a message limited to 2048
     *                characters): a start of a secret at its very end, at least
     *                {@value #MIN_SECRET_LENGTH} characters long, is masked too
     * @return the text with every occurrence of every secret replaced by {@value #MASK} (longest
     *         secrets first), never longer than {@code text}; null stays null
     */
    public static String secrets(String text, Collection<String> secrets, boolean cut) {
        if (text == null || secrets == null || secrets.isEmpty()) {
            return text;
        }
        List<String> sorted = new ArrayList<>();
        for (String s : secrets) {
            if (s != null && s.length() >= MIN_SECRET_LENGTH) {
                sorted.add(s);
            }
        }
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        String out = text;
        for (String s : sorted) {
            out = out.replace(s, MASK);
        }
        if (cut) {
            for (String s : sorted) {
                for (int k = Math.min(s.length() - 1, out.length()); k >= MIN_SECRET_LENGTH; k--) {
                    if (out.regionMatches(out.length() - k, s, 0, k)) {
                        out = out.substring(0, out.length() - k) + MASK;
                        break;
                    }
                }
            }
        }
        return out;
    }

    /**
     * {@link #secrets(String, Collection, boolean)} then {@link #urls(String)}.
     *
     * @param text    any text; may be null
     * @param secrets values to mask
     * @param cut     whether the text may have been cut short
     * @return the redacted text; null stays null
     */
    public static String text(String text, Collection<String> secrets, boolean cut) {
        return urls(secrets(text, secrets, cut));
    }
}
