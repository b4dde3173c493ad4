package io.capstream.cli.options;

import io.capstream.loadgen.run.TlsConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How an {@code https} endpoint's certificate is checked (issue 30): {@code --insecure} and {@code --ca-cert}, mixed
 * into the run options. Resolved into a {@link TlsConfig}; its {@link TlsConfig#problem()} is the usage error of a
 * bad combination or an unreadable file.
 */
public class TlsOptions {
    @Option(names = "--insecure",
            description = "Do not verify an https endpoint's certificate or host name (a self-signed test endpoint,"
                    + " e.g. the built-in engine with --sim-https). Default: verified against the JVM's trust store.")
    boolean insecure;

    @Option(names = "--ca-cert", paramLabel = "FILE",
            description = "Trust the CA (or self-signed) certificate in this PEM file for an https endpoint, instead"
                    + " of the JVM's trust store; the host name is still verified.")
    Path caCert;

    /** @return the settings */
    public TlsConfig toConfig() {
        return new TlsConfig(insecure, caCert);
    }
}
