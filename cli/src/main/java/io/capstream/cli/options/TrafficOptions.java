package io.capstream.cli.options;

import io.capstream.aggregator.slo.SloParser;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The option groups of {@code capstream run}, {@code generate} and {@code sweep} that are mixed in whole, mostly those
 * of issue 30, in one mixin of {@link WorkloadOptions}: {@code --batch} ({@link InputsOptions}), the arrival pattern
 * ({@link ArrivalOptions}), request cancellation ({@link CancelOptions}), images ({@link ImageOptions}), TLS
 * ({@link TlsOptions}), the SLOs ({@code --slo}) and the stop rules ({@link StopOptions}). Declared in the order
 * {@link WorkloadOptions} had them, so the help lists every option where it did ({@link OptionSections} finds an
 * option's section by its name or declaring class). Applied to the resolved target, load shape and run configuration
 * by the {@code applyTo} methods.
 */
public class TrafficOptions {
    @Mixin InputsOptions inputs = new InputsOptions(); // --batch (issue 30)
    @Mixin ArrivalOptions arrivals = new ArrivalOptions();
    @Mixin CancelOptions cancel = new CancelOptions();
    @Mixin ImageOptions imageOptions = new ImageOptions();
    @Mixin TlsOptions tls = new TlsOptions();

    @Option(names = "--slo", paramLabel = "SLO",
            description = "Service-level objective, repeatable, e.g. 'ttft_p95_ms<=300', 'error_rate<=0.01'. Metrics: "
                    + SloParser.METRICS_HELP + ". The report's capstream.slo and the summary show each SLO's observed"
                    + " value and attainment, and the run's goodput (requests meeting every percentile SLO).")
    java.util.List<String> slos = new java.util.ArrayList<>();

    @Mixin StopOptions stopRules = new StopOptions();

    /** @return the given {@code --slo} texts, in order; never null */
    public java.util.List<String> slos() {
        return slos == null ? java.util.List.of() : java.util.List.copyOf(slos);
    }

    /**
     * @param target the target of {@link WorkloadOptions#toConfig}; not null
     * @return the target with the {@code --insecure} / {@code --ca-cert} settings
     */
    public TargetConfig applyTo(TargetConfig target) {
        return target.withTls(tls.toConfig());
    }

    /**
     * @param load the load shape of {@link WorkloadOptions#toConfig}, with the command's load level; not null
     * @return the load shape with {@code --burstiness}, {@code --rate-schedule} and {@code --steady-state}
     * @throws IllegalArgumentException for a malformed --rate-schedule or --steady-state (usage error)
     */
    public LoadShape applyTo(LoadShape load) {
        return arrivals.applyTo(load);
    }

    /**
     * @param config the run configuration of {@link WorkloadOptions#toConfig}; not null
     * @return the configuration with the {@code --batch}, stop-rule, cancellation and image options applied, in
     *     that order
     * @throws IllegalArgumentException when {@code --cancel-after} is not DURATION[,STDDEV] (usage error)
     */
    public RunConfig applyTo(RunConfig config) {
        RunConfig c = inputs.applyTo(config)
                .withStop(stopRules.toRules())
                .withCancel(cancel.toShape());
        return c.withPayload(imageOptions.applyTo(c.payload()));
    }
}
