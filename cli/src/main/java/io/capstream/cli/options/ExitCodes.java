package io.capstream.cli.options;

/**
 * Exit-code texts that several commands' {@code --help} share, so that one rule reads the same everywhere. The rule
 * for an endpoint: when the endpoint check ({@code EndpointPreflight}: connection refused, an unknown host, no TCP
 * connection, a TLS mismatch, a base URL one {@code /v1} short) finds that no request can reach it, {@code run},
 * {@code sweep}, {@code generate}, {@code rerun} and {@code check} stop with its one line and exit 2, as for a usage
 * error: nothing was sent, and the fix is the command line or starting the server. Exit 1 stays for what happens
 * after that (requests that failed, an endpoint that answers but cannot be measured, a time-out).
 */
public final class ExitCodes {
    /** Exit code 2 of the commands that check the endpoint before they send anything. */
    public static final String NOTHING_SENT = "2:usage error, or no request can reach the endpoint (connection"
            + " refused, unknown host, no TCP connection, a TLS mismatch, a base URL missing /v1): nothing was sent";

    private ExitCodes() {
    }
}
