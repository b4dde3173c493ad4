package io.capstream.schemas.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failed request's cause in capstream's words, for what people read (the console's failure list, the
 * HTML run page). The report keeps the reference's {@code error_type} and {@code error_message} as they are
 * (spec §6 names the types; §12.2 maps Java failures onto the reference's Python texts, such as
 * {@code <urlopen error [Errno 111] Connection refused>}, for parity with anvil tooling); this class only
 * rewords them. Texts it does not recognise are returned unchanged. Stateless.
 */
public final class FailureWording {
    private static final Pattern HTTP = Pattern.compile("HTTP Error (\\d{3}): (.*)", Pattern.DOTALL);
    private static final Pattern URLOPEN = Pattern.compile("<urlopen error (.*)>", Pattern.DOTALL);
    private static final Pattern UNRESOLVED = Pattern.compile("\\[Errno -2\\] Name or service not known \\((.*)\\)",
            Pattern.DOTALL);
    private static final Pattern INCOMPLETE = Pattern.compile("IncompleteRead\\((\\d+) bytes read\\)(: .*)?",
            Pattern.DOTALL);
    private static final Pattern CHOICES = Pattern.compile(".*\\((\"choices\" is [^)]*)\\)", Pattern.DOTALL);
    private static final Pattern PY_ATTRIBUTE = Pattern.compile(" \\('[A-Za-z]+' object has no attribute '[a-z]+'\\)$");

    private FailureWording() {
    }

    /**
     * @param errorType    the report's {@code error_type}, or null
     * @param errorMessage the report's {@code error_message}, or null (entries written before 2026-08-01)
     * @return the cause in capstream's words; never null
     */
    public static String of(String errorType, String errorMessage) {
        String type = errorType == null ? "" : errorType;
        String m = errorMessage == null || errorMessage.equals("<empty exception message>") ? "" : errorMessage;
        switch (type) {
            case "URLError":
                return connect(m);
            case "HTTPError":
                Matcher h = HTTP.matcher(m);
                return h.matches() ? "HTTP " + h.group(1) + " " + h.group(2) : orType(m, type);
            case "TimeoutError":
                return m.equals("timed out") ? "no data within --timeout (read timed out)" : orType(m, type);
            case "ConnectionResetError":
                return "the server reset the connection";
            case "RemoteDisconnected":
                return "the server closed the connection before answering";
            case "IncompleteRead":
                Matcher i = INCOMPLETE.matcher(m);
                return i.matches() ? "response cut after " + i.group(1) + " bytes: the server closed the connection"
                        + " before its end" : orType(m, type);
            case "ValueError":
                return m.equals("stream completed without visible content")
                        ? "the stream ended without visible content (no non-empty content delta)" : orType(m, type);
            case "TypeError":
                Matcher c = CHOICES.matcher(m);
                return "malformed stream: " + (c.matches() ? c.group(1) : PY_ATTRIBUTE.matcher(m).replaceFirst(""));
            default:
                return orType(m, type);
        }
    }

    private static String connect(String m) {
        Matcher u = URLOPEN.matcher(m);
        String inner = u.matches() ? u.group(1) : m;
        if (inner.equals("[Errno 111] Connection refused")) {
            return "connection refused: nothing listened at the endpoint";
        }
        if (inner.equals("timed out")) {
            return "no connection within --timeout (connect timed out)";
        }
        if (inner.equals("[Errno 113] No route to host")) {
            return "no route to the endpoint's host";
        }
        Matcher r = UNRESOLVED.matcher(inner);
        if (r.matches()) {
            return "the endpoint's host name does not resolve (" + r.group(1) + ")";
        }
        return inner.isEmpty() ? "cannot connect" : "cannot connect: " + inner;
    }

    private static String orType(String message, String type) {
        return message.isEmpty() ? (type.isEmpty() ? "failed" : type + " (no message)") : message;
    }
}
