package io.capstream.loadgen.workload;

import java.util.Locale;
import java.util.Set;

/**
 * One {@code -H 'Name: value'} header, sent with every request and with the {@code GET /models} probe (e.g. a
 * gateway's routing or tenant header, or an API key in a header of the provider's own name). The headers that
 * frame the exchange are capstream's and are refused (a {@code User-Agent} replaces capstream's): {@code Host}, {@code Content-Type}, {@code Content-Length},
 * {@code Transfer-Encoding}, {@code Connection} and {@code Accept-Encoding} (the stream must arrive uncompressed
 * to be timed as it arrives). {@code Authorization} is allowed unless {@code --api-key-env} or credentials in the
 * base URL already set it. Header values may be secrets: only the names are recorded in the report, and the values
 * of headers that carry credentials ({@link #carriesCredentials()}) are masked wherever a server's echo of them would
 * be printed or stored ({@link io.capstream.loadgen.run.RunSecrets}).
 *
 * @param name  the header name, an RFC 9110 token; not null
 * @param value the value, without CR, LF or NUL; may be empty
 */
public record ExtraHeader(String name, String value) {
    /** Header names (lower case) capstream sets itself. */
    public static final Set<String> RESERVED = Set.of("host", "content-type", "content-length", "transfer-encoding",
            "connection", "accept-encoding");
    private static final String TCHARS = "!#$%&'*+-.^_`|~";
    /** Parts of a header name (lower case) that mark its value as a credential ({@link #carriesCredentials()}). */
    private static final Set<String> CREDENTIAL_PARTS = Set.of("authorization", "auth", "cookie", "key", "apikey",
            "token", "secret", "password", "passwd", "credential", "credentials", "session", "signature");

    /**
     * Parses {@code Name: value} (spaces around the value are dropped, as curl does).
     *
     * @param line the option's value; not null
     * @return the header
     * @throws IllegalArgumentException (one line, without the value) when there is no colon, the name is not a
     *                                  token, the value holds a line break, or the name is {@link #RESERVED}
     */
    public static ExtraHeader parse(String line) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("-H must be 'Name: value'" + (colon == 0 ? " (the name is empty)"
                    : " (no colon)"));
        }
        String name = line.substring(0, colon).strip();
        String value = line.substring(colon + 1).strip();
        if (name.isEmpty() || !name.chars().allMatch(ExtraHeader::tchar)) {
            throw new IllegalArgumentException("-H header name '" + safeName(name) + "' is not a valid HTTP header name");
        }
        if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            throw new IllegalArgumentException("-H " + name + ": the value may not contain a line break");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("-H " + name + ": capstream sets this header itself");
        }
        return new ExtraHeader(name, value);
    }

    /**
     * Adds the headers to a request's: a name given with {@code -H} replaces capstream's own header of that name
     * (e.g. {@code User-Agent}), and a name given several times is sent with each value, in order.
     *
     * @param headers the {@code -H} headers, in order; not null
     * @param into    the request's headers; not null
     */
    public static void apply(java.util.List<ExtraHeader> headers, io.vertx.core.MultiMap into) {
        if (headers.isEmpty()) {
            return; // the usual case: nothing allocated per request
        }
        java.util.Set<String> replaced = new java.util.HashSet<>();
        for (ExtraHeader h : headers) {
            if (replaced.add(h.name().toLowerCase(Locale.ROOT))) {
                into.remove(h.name());
            }
            into.add(h.name(), h.value());
        }
    }

    /**
     * Whether the header carries credentials, so that its value is a secret: {@code Authorization},
     * {@code Proxy-Authorization}, {@code Cookie}, and any name with a part (between {@code -} or {@code _}) that
     * names a credential: {@code X-Api-Key}, {@code X-Auth-Token}, {@code Ocp-Apim-Subscription-Key},
     * {@code X-Client-Secret}, {@code X-Session-Id}, ... ({@code X-Tokenizer} or {@code X-Tenant} are not).
     *
     * @return true when the value must never be printed or stored
     */
    public boolean carriesCredentials() {
        for (String part : name.toLowerCase(Locale.ROOT).split("[-_.]")) {
            if (CREDENTIAL_PARTS.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The values to mask wherever text is recorded (a server may echo a header): for a header that
     * {@link #carriesCredentials()}, its whole value, the credentials after an auth scheme ({@code Bearer <token>},
     * {@code Basic <token>} and the password it encodes) and each cookie's value; nothing for other headers.
     *
     * @return the secret values (some may be too short to be masked); never null
     */
    public java.util.List<String> secretValues() {
        if (!carriesCredentials() || value.isEmpty()) {
            return java.util.List.of();
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        out.add(value);
        int space = value.indexOf(' ');
        if (space > 0) {
            String credentials = value.substring(space + 1).strip();
            out.add(credentials);
            if (value.regionMatches(true, 0, "Basic", 0, space)) {
                out.addAll(ApiKey.basicSecrets(credentials));
            }
        }
        if (name.equalsIgnoreCase("cookie")) {
            for (String pair : value.split(";")) {
                int eq = pair.indexOf('=');
                out.add(eq < 0 ? pair.strip() : pair.substring(eq + 1).strip());
            }
        }
        return out;
    }

    /** @return whether this is the Authorization header (case-insensitive) */
    public boolean isAuthorization() {
        return name.equalsIgnoreCase("authorization");
    }

    private static boolean tchar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || TCHARS.indexOf(c) >= 0;
    }

    /** @return at most the first 40 characters, without control characters (never the value of a header) */
    private static String safeName(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return t.replaceAll("\\p{Cntrl}", "?");
    }

    @Override
    public String toString() {
        return name + ": ***";
    }
}
