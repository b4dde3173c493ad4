package io.capstream.cli.commands;

import io.capstream.cli.distributed.PlanPublisher;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.report.OutputPath;
import io.capstream.cli.runner.DistributedRunStep;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.RunRequest;

/** The {@code --workers N} checks and coordinator of {@code run} and {@code generate}. Stateless. */
final class DistributedRunOptions {
    /** Largest {@code --workers}. */
    static final int MAX_WORKERS = 1000;

    private DistributedRunOptions() {
    }

    /**
     * @param workers the {@code --workers} value
     * @param kafka   the command's Kafka options
     * @return the one-line usage error, or null when the distributed run can start
     */
    static String problem(int workers, KafkaOptions kafka) {
        if (workers < 1 || workers > MAX_WORKERS) {
            return "--workers must be 1.." + MAX_WORKERS + ", got " + workers;
        }
        if (kafka.bootstrapServers() == null) {
            return "--workers needs --bootstrap-servers: the workers cannot reach this process's embedded broker";
        }
        if (kafka.schemaRegistryUrl() == null) {
            return "--workers needs --schema-registry-url (a registry every worker reaches)";
        }
        return null;
    }

    /**
     * @param req     the command's request
     * @param workers N
     * @return the coordinator as the driver's work
     */
    static RunDriver.StackWork coordinator(RunRequest req, int workers) {
        DistributedRunStep step = new DistributedRunStep(req, workers, PlanPublisher.DEFAULT_LEAD, System.out,
                System.err, System::getenv);
        return new RunDriver.StackWork() {
            @Override
            public int run(io.capstream.cli.stack.LocalStack stack, io.capstream.cli.runner.DeliverySession session,
                           io.capstream.loadgen.run.RunConfig config, io.capstream.loadgen.run.RunControl control)
                    throws Exception {
                return step.run(stack, session, config, control, runId -> OutputPath.resolve(req.output(), runId));
            }

            @Override
            public java.util.List<String> usageProblems(io.capstream.loadgen.run.RunConfig config) {
                return DistributedRunStep.usageProblems(config, workers);
            }
        };
    }
}
