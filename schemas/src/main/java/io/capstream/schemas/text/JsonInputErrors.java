package io.capstream.schemas.text;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Jackson's parse errors on a user's file ({@code --dataset}, {@code --trace}, a report given to {@code report},
 * {@code compare} or {@code import}) into capstream's words for a one-line usage error: a limit of Jackson's
 * {@code StreamReadConstraints} (a string of over 20,000,000 characters, nesting deeper than 1,000 levels, ...) is named
 * by what it means, not by the constraint's class, and the line comes from the parser when the exception has no
 * location (a constraint error has none, which used to end in a {@code NullPointerException} message). Stateless.
 */
public final class JsonInputErrors {
    private static final Pattern LIMIT = Pattern.compile("maximum allowed \\(([0-9]+)");

    private JsonInputErrors() {
    }

    /**
     * @param e the parse error; not null
     * @return e.g. {@code "a string value longer than 20,000,000 characters (the JSON reader's limit)"}, {@code "nested
     *         deeper than 1,000 levels (the JSON reader's limit)"} or {@code "not valid JSON (Unexpected character
     *         ...)"}: what is wrong, without the line
     */
    public static String describe(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
            Matcher lim = LIMIT.matcher(m);
            String n = lim.find() ? String.format(Locale.ROOT, "%,d", Long.parseLong(lim.group(1))) : "its";
            String what;
            if (m.startsWith("String value length")) {
                what = "a string value longer than " + n + " characters";
            } else if (m.startsWith("Document nesting depth")) {
                what = "nested deeper than " + n + " levels";
            } else if (m.startsWith("Number value length")) {
                what = "a number longer than " + n + " digits";
            } else if (m.startsWith("Name length")) {
                what = "a member name longer than " + n + " characters";
            } else if (m.startsWith("Document length")) {
                what = "longer than " + n + " characters";
            } else {
                what = "beyond a size limit";
            }
            return what + " (the JSON reader's limit)";
        }
        String m = e.getOriginalMessage();
        int nl = m == null ? -1 : m.indexOf('\n');
        return "not valid JSON (" + (m == null ? e.getClass().getSimpleName() : nl >= 0 ? m.substring(0, nl) : m) + ")";
    }

    /**
     * @param e        the parse error; not null
     * @param fallback where the parser was when it failed (e.g. {@code parser.currentLocation()}), or null
     * @return {@code "line N: "} and {@link #describe}, or only the latter when the line is unknown
     */
    public static String message(JsonProcessingException e, JsonLocation fallback) {
        long line = line(e, fallback);
        return (line > 0 ? "line " + line + ": " : "") + describe(e);
    }

    /**
     * @param e        the parse error; not null
     * @param fallback where the parser was when it failed (e.g. {@code parser.currentLocation()}), or null
     * @return the 1-based line of the error: the exception's own location, else {@code fallback}'s; 0 when neither
     *         is known
     */
    public static long line(JsonProcessingException e, JsonLocation fallback) {
        JsonLocation at = e.getLocation() != null ? e.getLocation() : fallback;
        return at == null ? 0 : Math.max(0, at.getLineNr());
    }
}
