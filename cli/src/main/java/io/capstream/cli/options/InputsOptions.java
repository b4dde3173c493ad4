package io.capstream.cli.options;

import io.capstream.loadgen.run.PayloadShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.workload.InputBatch;
import picocli.CommandLine.Option;

/**
 * The option of {@code capstream run}, {@code generate} and {@code sweep} for the endpoints that take a batch of
 * inputs (issue 30): {@code --batch N}, inputs per {@code --endpoint embeddings} request or documents per
 * {@code --endpoint rerank} request. Resolved into {@link PayloadShape#batch()} by {@link #applyTo}; the rules are
 * {@link io.capstream.loadgen.run.RunValidator}'s.
 */
public class InputsOptions {
    @Option(names = "--batch", paramLabel = "N",
            description = "--endpoint embeddings (POST <base>/embeddings): inputs per request (the input array);"
                    + " --endpoint rerank (POST <base>/rerank): documents ranked per request against one short query."
                    + " Each input is a distinct synthetic passage of --ctx-tokens or --input-tokens tokens (default: "
                    + InputBatch.DEFAULT_INPUT_TOKENS + " tokens, 3 characters each). Not streamed: the report gives"
                    + " request latency, inputs/s and input tokens/s (usage) instead of TTFT and decode; --max-tokens,"
                    + " --output-tokens, --turns, --tools, thinking, --images, --cancel-rate, --dataset and --trace are"
                    + " refused with them. At least 1. Default: " + PayloadShape.DEFAULT_BATCH + ".")
    Integer batch;

    /**
     * @param config the run as the other options made it; not null
     * @return the run with {@code --batch} in its payload group (the group's other settings kept)
     */
    public RunConfig applyTo(RunConfig config) {
        PayloadShape p = config.payload();
        return batch == null ? config
                : config.withPayload(new PayloadShape(p.images(), p.imageSizes(), p.imageFormat(), batch));
    }
}
