package io.capstream.loadgen.client;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.http.HttpClosedException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Maps Java/Vert.x/Netty exceptions onto the reference's error names and messages (spec §2.4, §6,
 * §12.2): connection refused → {@code URLError <urlopen error [Errno 111] Connection refused>};
 * connect timeout → {@code URLError <urlopen error timed out>}; a stall waiting for headers or in the
 * body → {@code TimeoutError timed out}; a close before the response head →
 * {@code RemoteDisconnected}; a close in the middle of the body → {@code IncompleteRead}; a reset →
 * {@code ConnectionResetError}.
 */
public final class FailureMapper {
    /** Where the request was when it failed. */
    public enum Phase {
        /** Opening the connection. */
        CONNECT,
        /** Sending the request / waiting for the response head. */
        HEADERS,
        /** Reading the body. */
        BODY
    }

    private FailureMapper() {
    }

    /**
     * @param t         the exception
     * @param phase     where it happened
     * @param bodyBytes body bytes read before it (BODY phase)
     * @return the recorded error
     */
    public static RequestError map(Throwable t, Phase phase, long bodyBytes) {
        Throwable c = t;
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (isTimeout(x) || x instanceof ConnectException || x instanceof UnknownHostException
                    || x instanceof HttpClosedException || x instanceof ClosedChannelException) {
                c = x;
                break;
            }
        }
        String msg = String.valueOf(c.getMessage());
        String lower = msg.toLowerCase(Locale.ROOT);
        if (phase == Phase.CONNECT) {
            if (isTimeout(c)) {
                return RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error timed out>");
            }
            if (c instanceof ConnectException && lower.contains("refused")) {
                return RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error [Errno 111] Connection refused>");
            }
            if (c instanceof NoRouteToHostException) {
                return RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error [Errno 113] No route to host>");
            }
            if (c instanceof UnknownHostException) {
                return RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error [Errno -2] Name or service not known ("
                        + msg + ")>");
            }
            String tls = tlsFailure(t);
            return RequestError.of(ErrorTypes.URL_ERROR, "<urlopen error " + (tls != null ? tls : describe(c)) + ">");
        }
        if (isTimeout(c)) {
            return RequestError.of(ErrorTypes.TIMEOUT_ERROR, "timed out");
        }
        if (lower.contains("connection reset")) {
            return RequestError.of("ConnectionResetError", "[Errno 104] Connection reset by peer");
        }
        if (c instanceof HttpClosedException || c instanceof ClosedChannelException || lower.contains("closed")) {
            if (phase == Phase.HEADERS) {
                return RequestError.of(ErrorTypes.REMOTE_DISCONNECTED, "Remote end closed connection without response");
            }
            return RequestError.of(ErrorTypes.INCOMPLETE_READ, "IncompleteRead(" + bodyBytes
                    + " bytes read): the server closed the connection before the end of the response body");
        }
        return RequestError.of(phase == Phase.BODY ? ErrorTypes.INCOMPLETE_READ : ErrorTypes.OS_ERROR, describe(c));
    }

    /**
     * @return a failed TLS handshake as Python's ssl module words it (an untrusted certificate as
     *         {@code [SSL: CERTIFICATE_VERIFY_FAILED]}, naming the options that help), or null when it is not one
     */
    private static String tlsFailure(Throwable t) {
        boolean ssl = false;
        Throwable root = t;
        boolean certificate = false;
        for (Throwable x = t; x != null; x = x.getCause()) {
            ssl |= x instanceof javax.net.ssl.SSLException;
            certificate |= x instanceof java.security.cert.CertificateException
                    || x instanceof java.security.cert.CertPathValidatorException
                    || x instanceof java.security.GeneralSecurityException && !(x instanceof javax.net.ssl.SSLException);
            root = x;
        }
        if (!ssl) {
            return null;
        }
        String why = String.valueOf(root.getMessage());
        return certificate ? "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: " + why
                + " (give --ca-cert FILE, or --insecure for a test endpoint)" : "[SSL] " + describe(root);
    }

    private static boolean isTimeout(Throwable x) {
        return x instanceof TimeoutException || x instanceof ConnectTimeoutException
                || x instanceof java.net.SocketTimeoutException
                || x.getClass().getSimpleName().contains("Timeout");
    }

    private static String describe(Throwable c) {
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : ": " + m);
    }
}
