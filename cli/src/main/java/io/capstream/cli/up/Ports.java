package io.capstream.cli.up;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Checks that a loopback port can be bound before a service is started on it. Stateless. */
public final class Ports {
    private Ports() {
    }

    /**
     * @param port a TCP port, 1..65535
     * @return true when nothing listens on 127.0.0.1:port (a bind with {@code SO_REUSEADDR}, as the
     *         broker and the registry use, succeeds; connections in TIME_WAIT do not count)
     */
    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param host the address a server would bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}; not null
     * @param port a TCP port, 1..65535
     * @return false only when binding host:port fails because the address is in use ({@link BindException});
     *         true when it can be bound, and when the host cannot be bound for another reason (the server's
     *         own bind reports that)
     */
    public static boolean isFree(String host, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(host, port));
            return true;
        } catch (BindException e) {
            return !String.valueOf(e.getMessage()).contains("in use");
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * @return a port that was free a moment ago (for tests and defaults of 0)
     * @throws IllegalStateException when no port can be bound
     */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port", e);
        }
    }
}
