package io.capstream.cli.runner;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Whether this process may open enough files for a run's connections, checked before anything is sent. Every request
 * in flight holds a connection (two sockets in this process with the built-in simulated engine, which serves from the
 * same JVM). Without the check a {@code --concurrency} above {@code ulimit -n} failed most requests with "Too many open
 * files", counted as the endpoint's failures (a fresh user's {@code --concurrency 3000} under {@code ulimit -n 1024}:
 * 2,513 of 3,000 requests failed, exit 1). HotSpot raises its soft limit to the hard one at start-up
 * ({@code -XX:+MaxFDLimit}), so the JVM's own maximum is the bound. Stateless.
 */
final class OpenFileLimit {
    /** Files the JVM, its jars, the HTTP API and the Kafka clients and broker keep open beside the connections. */
    static final int MARGIN = 256;

    private OpenFileLimit() {
    }

    /**
     * @param load          the run's load; not null
     * @param builtInEngine whether the simulated engine runs in this process (two sockets per request)
     * @return the usage error, or null when the limit is enough or unknown (not a Unix JVM)
     */
    static String problem(LoadShape load, boolean builtInEngine) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return problem(load, builtInEngine, os.getMaxFileDescriptorCount(), os.getOpenFileDescriptorCount());
        }
        return null;
    }

    /**
     * @param load          the run's load; not null
     * @param builtInEngine whether the simulated engine runs in this process
     * @param maxOpen       the most files this process may have open (its {@code RLIMIT_NOFILE}); &lt;= 0 for unknown
     * @param open          files open now
     * @return the usage error naming the option, what it needs and the limit, or null when it fits (or is unknown)
     */
    static String problem(LoadShape load, boolean builtInEngine, long maxOpen, long open) {
        boolean closed = load.arrival() == null || load.arrival() == ArrivalMode.CLOSED;
        if (maxOpen <= 0 || (!closed && load.maxInFlight() == null)) {
            return null; // an open loop's default cap is a ceiling, not what the rate needs
        }
        int inFlight = Math.min(closed ? load.effectiveConcurrency() : load.effectiveMaxInFlight(),
                Math.max(1, load.effectiveRequests()));
        long needed = (long) inFlight * (builtInEngine ? 2 : 1) + Math.max(0, open) + MARGIN;
        if (needed <= maxOpen) {
            return null;
        }
        String option = closed ? (load.burst() != 0 ? "--burst" : "--concurrency") : "--max-in-flight";
        return String.format(Locale.ROOT, "%s %d needs about %,d open files (a connection per request in flight%s,"
                        + " plus %d for the JVM and Kafka), but this process may open %,d (ulimit -n): raise the limit"
                        + " (e.g. ulimit -n %d) or lower %s", option, inFlight, needed,
                builtInEngine ? ", two with the built-in engine" : "", MARGIN, maxOpen, roundUp(needed), option);
    }

    private static long roundUp(long needed) {
        long p = 1024;
        while (p < needed) {
            p *= 2;
        }
        return p;
    }
}
