package io.capstream.loadgen.client;

import java.net.URI;

/** Whether a URL's host is a name to resolve (DNS) or an IP address (issue 30's DNS phase). */
final class HostNames {
    private HostNames() {
    }

    /**
     * @param url an absolute URL
     * @return true when its host is a name (e.g. {@code localhost}, {@code api.example.com}); false for an IPv4 or
     *         bracketed IPv6 address, and for a URL that cannot be parsed
     */
    static boolean isName(String url) {
        String host;
        try {
            host = URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (host == null || host.isEmpty() || host.startsWith("[")) {
            return false;
        }
        return !host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }
}
