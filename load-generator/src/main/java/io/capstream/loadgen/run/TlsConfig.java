package io.capstream.loadgen.run;

import java.nio.file.Path;

/**
 * How an {@code https} target's certificate is checked (issue 30): against the JVM's trust store (the default),
 * against a given CA certificate ({@code --ca-cert FILE}, PEM), or not at all ({@code --insecure}, for a
 * self-signed test endpoint). Ignored for {@code http} targets.
 *
 * @param insecure {@code --insecure}: trust every certificate and host name
 * @param caCert   {@code --ca-cert}: a PEM file of the CA (or self-signed) certificate to trust, or null
 */
public record TlsConfig(boolean insecure, Path caCert) {

    /** The JVM's trust store, host names verified. */
    public static final TlsConfig DEFAULT = new TlsConfig(false, null);

    /** @return the same settings for the generator's HTTP clients */
    public io.capstream.loadgen.workload.ClientTls clientTls() {
        return new io.capstream.loadgen.workload.ClientTls(insecure, caCert);
    }

    /** @return the usage error of a combination that cannot work, or null */
    public String problem() {
        if (insecure && caCert != null) {
            return "--insecure and --ca-cert both say how to check the certificate; give one";
        }
        if (caCert != null && !java.nio.file.Files.isReadable(caCert)) {
            return "--ca-cert " + caCert + " cannot be read";
        }
        return null;
    }
}
