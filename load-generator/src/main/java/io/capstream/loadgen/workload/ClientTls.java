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
}
