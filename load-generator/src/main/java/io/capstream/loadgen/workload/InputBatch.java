package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The bodies of the endpoints that take a batch of inputs instead of a chat (issue 30):
 * <ul>
 * <li>embeddings: {@code {"model":M,"input":[T0, ..., Tn-1]}} (OpenAI's shape; vLLM, llama.cpp, TEI take it);</li>
 * <li>rerank: {@code {"model":M,"query":Q,"documents":[T0, ..., Tn-1]}} (the Jina / Cohere shape llama-server and
 * vLLM take; every document is ranked, no {@code top_n}).</li>
 * </ul>
 * Input (document) {@code j} of request {@code i} is the synthetic prompt of index {@code i × batch + j}
 * ({@link PromptBuilder}, at the request's planned length, 3 characters per token) without a shared prefix, so that
 * every input of the run is different text; the run's prompt salt, when there is one, starts each input. The rerank
 * query is one short line naming the request, {@code "# request i: which helper computes i?"}. The members of
 * {@code --extra-body} follow (e.g. {@code dimensions}, {@code encoding_format}, {@code truncate}, {@code top_n});
 * {@link #RESERVED} names the members it may not set. Immutable, thread-safe.
 */
public final class InputBatch {
    /**
     * Planned input length when neither {@code --ctx-tokens} nor {@code --input-tokens} is given, tokens: a
     * passage of a retrieval corpus (the common chunk size of RAG pipelines), and within the 512-token limit of
     * most embedding models.
     */
    public static final int DEFAULT_INPUT_TOKENS = 256;

    /** Members of the body {@code --extra-body} may not set here: capstream writes them. */
    public static final java.util.Set<String> RESERVED = java.util.Set.of("input", "query", "documents");

    private static final JsonFactory JSON = new JsonFactory();

    private final String model;
    private final ApiEndpoint endpoint;
    private final int batch;
    private final PromptBuilder prompts;
    private final ExtraBody extra;

    /**
     * @param model    the model id sent
     * @param endpoint {@link ApiEndpoint#EMBEDDINGS} or {@link ApiEndpoint#RERANK}
     * @param batch    inputs (documents) per request, &gt;= 1
     * @param salt     the run's prompt salt, or null
     * @param extra    {@code --extra-body} members written after capstream's, or null
     * @throws IllegalArgumentException for a streamed endpoint or a batch below 1
     */
    public InputBatch(String model, ApiEndpoint endpoint, int batch, String salt, ExtraBody extra) {
        if (endpoint.streamed()) {
            throw new IllegalArgumentException("--endpoint " + endpoint.label() + " takes no input batch");
        }
        if (batch < 1) {
            throw new IllegalArgumentException("--batch must be at least 1, got " + batch);
        }
        this.model = model;
        this.endpoint = endpoint;
        this.batch = batch;
        this.prompts = new PromptBuilder(0, salt);
        this.extra = extra;
    }

    /** @return inputs (documents) per request */
    public int batch() {
        return batch;
    }

    /**
     * @param index   the request's index
     * @param planned the length of each input, estimated tokens
     * @return the UTF-8 JSON body
     * @throws PromptBuilder.PromptTooSmallException when {@code planned} cannot hold an input's tail
     */
    public byte[] body(int index, int planned) throws PromptBuilder.PromptTooSmallException {
        int chars = (int) Math.min(Integer.MAX_VALUE / 2, (long) (planned * PromptBuilder.CHARS_PER_TOKEN) * batch);
        ByteArrayOutputStream out = new ByteArrayOutputStream(chars + chars / 20 + 256);
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("model", model);
            if (endpoint == ApiEndpoint.RERANK) {
                g.writeStringField("query", "# request " + index + ": which helper computes " + index + "?");
                g.writeArrayFieldStart("documents");
            } else {
                g.writeArrayFieldStart("input");
            }
            long first = (long) index * batch;
            for (int j = 0; j < batch; j++) {
                g.writeString(prompts.prompt((int) Math.min(Integer.MAX_VALUE, first + j), planned));
            }
            g.writeEndArray();
            if (extra != null) {
                extra.writeMembers(g);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
