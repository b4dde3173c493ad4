package io.capstream.loadgen.workload;

import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.file.Path;

/**
 * How the generator's HTTP clients check an {@code https} endpoint's certificate (issue 30): the JVM's trust store
 * (the default), a PEM CA certificate ({@code --ca-cert}), or not at all ({@code --insecure}: every certificate and
 * host name is accepted). Applied to the streaming client and the pre-flight probes; http URLs ignore it.
 *
 * @param insecure trust every certificate and host name
 * @param caCert   a PEM file of the CA (or self-signed) certificate to trust instead of the JVM's, or null
 */
public record ClientTls(boolean insecure, Path caCert) {
    /** The JVM's trust store, host names verified. */
    public static final ClientTls DEFAULT = new ClientTls(false, null);

    /**
     * @param options client options to set the trust of
     * @return the same options
     */
    public HttpClientOptions apply(HttpClientOptions options) {
        if (insecure) {
            options.setTrustAll(true).setVerifyHost(false);
        } else if (caCert != null) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(caCert.toString()));
        }
        return options;
    }

    /**
     * The same trust for the JDK's HTTP client (the server-metrics scraper).
     *
     * @return an SSL context that trusts every certificate ({@code insecure}; the JDK client's host-name check is the
     *         trust manager's, so it is skipped too) or {@code caCert}; null for the JVM's default
     * @throws IllegalStateException when {@code caCert} cannot be read as a PEM certificate
     */
    public javax.net.ssl.SSLContext sslContext() {
        try {
            javax.net.ssl.TrustManager[] trust;
            if (insecure) {
                trust = new javax.net.ssl.TrustManager[] {new TrustAll()};
            } else if (caCert != null) {
                java.security.KeyStore ks = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
                ks.load(null, null);
                try (java.io.InputStream in = java.nio.file.Files.newInputStream(caCert)) {
                    int i = 0;
                    for (java.security.cert.Certificate c : java.security.cert.CertificateFactory.getInstance("X.509")
                            .generateCertificates(in)) {
                        ks.setCertificateEntry("ca-" + i++, c);
                    }
                }
                javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                        javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ks);
                trust = tmf.getTrustManagers();
            } else {
                return null;
            }
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, trust, null);
            return ctx;
        } catch (java.io.IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("--ca-cert " + caCert + ": " + e.getMessage(), e);
        }
    }

    /** Accepts every certificate and host name ({@code --insecure}). */
    private static final class TrustAll extends javax.net.ssl.X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType,
                                       java.net.Socket socket) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType,
                                       java.net.Socket socket) {
        }

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType,
                                       javax.net.ssl.SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType,
                                       javax.net.ssl.SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }
}
