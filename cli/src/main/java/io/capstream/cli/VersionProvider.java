package io.capstream.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the jar's implementation version. */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = CapstreamMain.class.getPackage().getImplementationVersion();
        return new String[] {"capstream " + (v == null ? "dev" : v)};
    }
}
