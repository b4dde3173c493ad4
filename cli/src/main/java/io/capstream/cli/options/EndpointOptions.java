package io.capstream.cli.options;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ExtraHeader;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The endpoint a command talks to and how it is addressed: {@code --base-url}, {@code --model}, {@code --api-key-env},
 * {@code -H} and {@code --endpoint}. Mixed into {@link WorkloadOptions} ({@code run}, {@code generate},
 * {@code sweep}) and into {@code capstream check}, so that both take the same names with the same meaning. Values
 * are parsed on demand; a bad one is an {@link IllegalArgumentException} with a one-line message (a usage error).
 */
public class EndpointOptions {
    @Option(names = "--base-url", paramLabel = "URL",
            description = "Endpoint base URL, usually ending in /v1 (e.g. http://127.0.0.1:8000/v1). Default: none ="
                    + " the built-in simulated engine (engine label capstream-sim).")
    String baseUrl;

    @Option(names = "--model", paramLabel = "ID", description = "Model id sent in each request. Required with --base-url.")
    String model;

    @Option(names = "--api-key-env", paramLabel = "VAR",
            description = "Environment variable holding the API key (sent as Bearer; never logged or recorded).")
    String apiKeyEnv;

    @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'",
            description = "Header sent with every request and the GET /models probe (repeatable), e.g. a gateway's"
                    + " routing or tenant header; it replaces capstream's own header of that name (User-Agent)."
                    + " Host, Content-Type, Content-Length, Transfer-Encoding, Connection and Accept-Encoding are"
                    + " refused; Authorization not with --api-key-env. Only the names are recorded in the report"
                    + " (values may be secrets).")
    java.util.List<String> headers = new java.util.ArrayList<>();

    @Option(names = "--endpoint", paramLabel = "chat|completions|responses|messages|embeddings|rerank",
            description = "chat: POST <base>/chat/completions with one user message (the reference); completions:"
                    + " POST <base>/completions with the prompt as a string (choices[].text is the output; not with"
                    + " the thinking options or --dataset, which are chat features); responses: POST <base>/responses"
                    + " (OpenAI Responses API: input, max_output_tokens; usage from response.completed); messages:"
                    + " POST <base>/messages (Anthropic Messages API: anthropic-version header, the --api-key-env key"
                    + " as x-api-key; not with --reasoning-effort); embeddings, rerank: see --batch. Default: chat.")
    String endpoint = "chat";

    /**
     * @return the given base URL, trimmed, or null when none was given (the simulated engine is the target; an empty
     *         {@code CAPSTREAM_BASE_URL} counts as not given, see {@code ConfigDefaultProvider})
     * @throws IllegalArgumentException when {@code --base-url} was given but is empty or blank: measuring the built-in
     *         simulated engine instead would report its capacity as the endpoint's
     */
    public String baseUrl() {
        if (baseUrl == null) {
            return null;
        }
        if (baseUrl.isBlank()) {
            throw new IllegalArgumentException("--base-url is empty: give the endpoint's URL (e.g."
                    + " http://127.0.0.1:8000/v1), or leave --base-url out to measure the built-in simulated engine");
        }
        return baseUrl.trim();
    }

    /** @return the given {@code --model}, or null */
    public String model() {
        return model;
    }

    /** @return the environment variable named by {@code --api-key-env}, or null */
    public String apiKeyEnv() {
        return apiKeyEnv;
    }

    /**
     * @return the {@code -H} headers, in order; never null
     * @throws IllegalArgumentException for a malformed or refused header (one line, without its value)
     */
    public List<ExtraHeader> headers() {
        return headers == null ? List.of() : headers.stream().map(ExtraHeader::parse).toList();
    }

    /**
     * @return the {@code --endpoint}; chat when not given
     * @throws IllegalArgumentException for an unknown value
     */
    public ApiEndpoint endpoint() {
        return ApiEndpoint.parse(endpoint);
    }
}
