package io.capstream.cli.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@code docs/architecture.md} ("Modules", "Packages") that go beyond which module may
 * depend on which (those are {@link ModuleRulesTest}): no package cycles, the module's root package
 * included; no Vert.x internals but the two documented ones; Vert.x only where HTTP is served or sent;
 * report statistics only in the aggregator (and the simulated engine, which plays the endpoint).
 *
 * <p>Imports capstream's own production classes the way {@link ModuleRulesTest} does.
 */
class LayerRulesTest {
    private static final String VERTX = "io.vertx..";
    private static final String VERTX_INTERNAL = "io.vertx.core.internal..";
    private static final String IO_YIELD = "io.capstream.loadgen.arrival.IoYield";
    /** Issue 30: the request bodies that share encoded images without copying them (docs/architecture.md, Vert.x). */
    private static final String SEGMENTED_BODY = "io.capstream.loadgen.workload.SegmentedBody";
    private static final String LOADGEN_RUN = "io.capstream.loadgen.run";
    /** Issue 33 item 4: the streamed requests' transport on Netty's channel, run on Vert.x's event loops. */
    private static final String NETTY_TRANSPORT = "io.capstream.loadgen.client.NettyStream(Transport|Handler)(\\$.*)?";
    /** HdrHistogram methods that read a statistic out of a histogram (the load generator may only record). */
    private static final java.util.Set<String> HDR_STATISTICS = java.util.Set.of("getValueAtPercentile",
            "getPercentileAtOrBelowValue", "getMean", "getStdDeviation", "getMaxValue", "getMaxValueAsDouble",
            "getMinValue", "getMinNonZeroValue", "percentiles", "linearBucketValues", "logarithmicBucketValues",
            "recordedValues", "allValues", "outputPercentileDistribution");

    /** Packages that serve or send HTTP with Vert.x (the only ones that may use its HTTP and web types). */
    static final String[] HTTP_PACKAGES = {
        "io.capstream.aggregator.api..", // serves the query API, asks peer instances
        "io.capstream.loadgen.client..", // sends the measured requests
        "io.capstream.loadgen.sim..", // serves the simulated endpoint
        "io.capstream.loadgen.warmup..", // sends warm-up requests (and serves their loopback target)
        "io.capstream.loadgen.workload..", // sends the model/endpoint probes, builds request bodies on the client's loops
    };

    /**
     * Packages that run on (or own) the event loops of the HTTP packages without HTTP types of their
     * own: the arrival drivers start each request on a client context, the self-check measures the delay
     * of those loops, the run owns the Vert.x instance of the load generator; cli creates and closes the
     * instances that serve (sim, API, worker) and send (load generator).
     */
    static final String[] EVENT_LOOP_PACKAGES = {
        "io.capstream.loadgen.arrival..",
        "io.capstream.loadgen.selfcheck..",
        "io.capstream.loadgen.run..",
        "io.capstream.cli.commands..",
        "io.capstream.cli.check..", // creates and closes the Vert.x instance of capstream check's probe (and sim)
        "io.capstream.cli.distributed..",
        "io.capstream.cli.stack..",
        "io.capstream.cli.up..",
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importCapstream() {
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(new ModuleRulesTest.DoNotIncludeTestJars())
                .importPackages("io.capstream");
    }

    @AfterAll
    static void resetArchUnit() {
        ArchConfiguration.get().reset();
    }

    /**
     * One slice per package directly below a module's root ({@code io.capstream.<module>.<package>..})
     * and one for the root package itself ({@code io.capstream.<module>}): a root class that uses a
     * package which uses the root class is a cycle too.
     */
    static final class ModulePackages implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String[] parts = javaClass.getPackageName().split("\\.");
            if (parts.length < 3 || !parts[0].equals("io") || !parts[1].equals("capstream")) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of(parts[2] + "." + (parts.length == 3 ? "(root)" : parts[3]));
        }

        @Override
        public String getDescription() {
            return "the packages of each module, its root package included";
        }
    }

    @Test
    void packagesAreFreeOfCyclesRootPackageIncluded() {
        slices().assignedFrom(new ModulePackages())
                .should().beFreeOfCycles()
                .because("a package uses the packages below it or beside it, never one that uses it back,"
                        + " the module's root package included (docs/architecture.md, Packages)")
                .check(classes);
    }

    @Test
    void noVertxInternalsOutsideTheDocumentedUses() {
        noClasses().that().doNotHaveFullyQualifiedName(IO_YIELD).and().doNotHaveFullyQualifiedName(SEGMENTED_BODY)
                .and().haveNameNotMatching(NETTY_TRANSPORT)
                .and().resideOutsideOfPackage(LOADGEN_RUN)
                .should().dependOnClassesThat().resideInAPackage(VERTX_INTERNAL)
                .because("io.vertx.core.internal is not Vert.x's public API and may change in any release;"
                        + " only the documented uses need it (docs/architecture.md, Vert.x)")
                .check(classes);
    }

    /**
     * The documented uses, each limited to the one internal type it needs: Vert.x 5 has no public
     * API for any of them ({@code SegmentedBody}: see docs/architecture.md). {@code IoYield} schedules a task on the context's Netty event loop
     * ({@code ContextInternal.nettyEventLoop()}) so it runs after that loop iteration's I/O (a timer
     * would add at least 1 ms to every closed-loop slot's start); the run ({@code io.capstream.loadgen.run})
     * counts the event loops and creates one event-loop context per loop
     * ({@code VertxInternal.nettyEventLoopGroup()}, {@code createEventLoopContext()}), since
     * {@code Vertx.getOrCreateContext()} returns one sticky context per calling thread.
     */
    @Test
    void documentedVertxInternalsUseOnlyTheTypeTheyNeed() {
        noClasses().that().haveFullyQualifiedName(IO_YIELD)
                .should().dependOnClassesThat(resideInAPackage(VERTX_INTERNAL)
                        .and(not(nameMatching("io\\.vertx\\.core\\.internal\\.ContextInternal"))))
                .because("IoYield needs only the context's Netty event loop (docs/architecture.md, Vert.x)")
                .check(classes);
        noClasses().that().resideInAPackage(LOADGEN_RUN)
                .should().dependOnClassesThat(resideInAPackage(VERTX_INTERNAL)
                        .and(not(nameMatching("io\\.vertx\\.core\\.internal\\.VertxInternal"))))
                .because("the run needs only the event-loop group and its contexts (docs/architecture.md, Vert.x)")
                .check(classes);
        noClasses().that().haveNameMatching(NETTY_TRANSPORT)
                .should().dependOnClassesThat(resideInAPackage(VERTX_INTERNAL)
                        .and(not(nameMatching("io\\.vertx\\.core\\.internal\\.(ContextInternal|VertxInternal"
                                + "|resolver\\.NameResolver)"))))
                .because("the Netty transport needs only the request's context and its event loop, and Vert.x's"
                        + " address resolver (docs/architecture.md, Vert.x)")
                .check(classes);
        noClasses().that().haveFullyQualifiedName(SEGMENTED_BODY)
                .should().dependOnClassesThat(resideInAPackage(VERTX_INTERNAL)
                        .and(not(nameMatching("io\\.vertx\\.core\\.internal\\.buffer\\.BufferInternal"))))
                .because("a body over shared image bytes needs only a Buffer over a Netty ByteBuf (docs/architecture.md,"
                        + " Vert.x)")
                .check(classes);
    }

    @Test
    void vertxHttpOnlyWhereHttpIsServedOrSent() {
        noClasses().that().resideOutsideOfPackages(HTTP_PACKAGES)
                .should().dependOnClassesThat().resideInAnyPackage("io.vertx.core.http..", "io.vertx.ext.web..")
                .because("only the packages that serve or send HTTP use Vert.x's HTTP server and client"
                        + " (docs/architecture.md, Vert.x)")
                .check(classes);
    }

    @Test
    void vertxOnlyWhereHttpIsServedOrSentOrItsEventLoopsRun() {
        String[] allowed = concat(HTTP_PACKAGES, EVENT_LOOP_PACKAGES);
        noClasses().that().resideOutsideOfPackages(allowed)
                .should().dependOnClassesThat().resideInAPackage(VERTX)
                .because("Vert.x is the HTTP layer: only the packages that serve or send HTTP, and those that"
                        + " run on or own their event loops, use it (docs/architecture.md, Vert.x)")
                .check(classes);
    }

    @Test
    void cliOnlyCreatesAndClosesVertxInstances() {
        noClasses().that().resideInAPackage("io.capstream.cli..")
                .should().dependOnClassesThat(resideInAPackage(VERTX)
                        .and(not(nameMatching("io\\.vertx\\.core\\.(Vertx|VertxOptions|Future)"))))
                .because("cli wires the modules: it creates and closes the Vert.x instance that the sim, the"
                        + " API and the load generator serve and send with (docs/architecture.md, Vert.x)")
                .check(classes);
    }

    /**
     * The load generator measures, the aggregator computes (issue 28, "Statistics only in the
     * aggregator"). The percentile engine ({@code io.capstream.schemas.stats}) and DDSketch are used by
     * the aggregator and by the simulated engine ({@code io.capstream.loadgen.sim}, which plays the
     * endpoint and its own /metrics). Two statistics stay in the load generator on purpose, neither of
     * them a report statistic of the endpoint: the progress line's running median TTFT
     * ({@code loadgen.run.RunningMedian}, printed to the console only) and the self-check's recording of the client's
     * own event-loop delays into an HdrHistogram ({@code loadgen.selfcheck}), which it sends raw: the aggregator reads
     * its percentiles ({@link #loadGeneratorReadsNoHdrHistogramStatistic}).
     */
    @Test
    void loadGeneratorComputesNoReportStatistics() {
        noClasses().that().resideInAPackage("io.capstream.loadgen..").and().resideOutsideOfPackage("io.capstream.loadgen.sim..")
                .should().dependOnClassesThat().resideInAnyPackage("io.capstream.schemas.stats..", "com.datadoghq.sketch..")
                .because("report statistics are computed by the aggregator from the event stream, so an import"
                        + " or replay recomputes them; the progress line's RunningMedian is not a report statistic"
                        + " and the self-check's HdrHistogram is sent raw, not a report statistic of the endpoint (docs/architecture.md, Statistics)")
                .check(classes);
    }

    /**
     * HdrHistogram in the load generator only for the self-check's recording (see
     * {@link #loadGeneratorReadsNoHdrHistogramStatistic}).
     */
    @Test
    void hdrHistogramOnlyInTheSelfCheck() {
        noClasses().that().resideInAPackage("io.capstream.loadgen..").and().resideOutsideOfPackage("io.capstream.loadgen.selfcheck..")
                .should().dependOnClassesThat().resideInAPackage("org.HdrHistogram..")
                .because("HdrHistogram is the self-check's record of the client's own event-loop delays, sent raw"
                        + " to the aggregator (docs/architecture.md, Statistics)")
                .check(classes);
    }

    /**
     * The load generator may record into an HdrHistogram (the self-check's event-loop delays: a measurement) and
     * send it raw ({@code ClientCheck.delay_histogram}), but reads no statistic from one: the delay and queueing
     * percentiles of {@code capstream.client} are computed by the aggregator ({@code ClientCheckCalculator}).
     */
    @Test
    void loadGeneratorReadsNoHdrHistogramStatistic() {
        noClasses().that().resideInAPackage("io.capstream.loadgen..")
                .should().callMethodWhere(DescribedPredicate.describe("a statistic of an HdrHistogram "
                        + new java.util.TreeSet<>(HDR_STATISTICS), call -> call.getTargetOwner().getPackageName().startsWith("org.HdrHistogram")
                        && HDR_STATISTICS.contains(call.getName())))
                .because("the self-check sends its histogram raw and the aggregator computes its percentiles, so"
                        + " the report's client check is computed where every report statistic is"
                        + " (docs/architecture.md, Statistics)")
                .check(classes);
    }

    /**
     * MAY FAIL UNTIL BRANCH {@code stats} IS MERGED: the report's server-metrics min/p50/max/last/increase
     * were computed in the load generator ({@code loadgen.servermetrics.ServerMetricsSummary}, a
     * nearest-rank of its own); issue 28 moves them to the aggregator, which computes them from the
     * scrapes in the run's event stream.
     */
    @Test
    void serverMetricsSummaryIsNotInTheLoadGenerator() {
        noClasses().that().resideInAPackage("io.capstream.loadgen..")
                .should().haveSimpleName("ServerMetricsSummary")
                .because("the report's server-metrics statistics are computed by the aggregator from the scrapes"
                        + " in the event stream, so an import or replay recomputes them (docs/architecture.md, Statistics)")
                .check(classes);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
