package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.capstream.loadgen.workload.ApiEndpoint;
import java.io.IOException;

/**
 * Reads the JSON answer of an embeddings or rerank request (issue 30) and checks it against the request: how many
 * items it answered and the input tokens its {@code usage} reports.
 *
 * <ul>
 * <li>embeddings ({@code POST /embeddings}, OpenAI's shape, as vLLM, llama.cpp and TEI answer it):
 * {@code {"data":[{"embedding":[...],"index":0}, ...], "usage":{"prompt_tokens":N,"total_tokens":N}}}; every item of
 * {@code data} must have an {@code embedding} (an array, or a base64 string), and there must be one per input;</li>
 * <li>rerank ({@code POST /rerank}, the Jina / Cohere shape llama-server and vLLM serve):
 * {@code {"results":[{"index":0,"relevance_score":0.5}, ...], "usage":{...}}}; one result per document (the
 * request asks for all of them).</li>
 * </ul>
 * Input tokens: {@code usage.prompt_tokens}, else {@code usage.total_tokens} (rerank servers report only that), else
 * -1. The vectors are skipped, not kept. A wrong answer is a {@code ValueError} naming what was wrong. Stateless,
 * thread-safe.
 */
public final class InputsAnswer {
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * What an answer held.
     *
     * @param items        items answered (embeddings with a vector, or rerank results)
     * @param promptTokens the input tokens of {@code usage}, or -1 when it has none
     * @param error        why the answer does not fit the request, or null when it does
     */
    public record Read(int items, long promptTokens, RequestError error) {
    }

    private InputsAnswer() {
    }

    /**
     * The inputs (documents) a request sends: the length of its top-level {@code input} array ({@code input} as one
     * string is one input) for embeddings, of {@code documents} for rerank.
     *
     * @param endpoint {@link ApiEndpoint#EMBEDDINGS} or {@link ApiEndpoint#RERANK}; not null
     * @param body     the request body, UTF-8 JSON; not null
     * @param len      bytes of {@code body} to read
     * @return the count, or -1 when the body has no such member (or is not JSON)
     */
    public static int inputsOf(ApiEndpoint endpoint, byte[] body, int len) {
        String member = endpoint == ApiEndpoint.RERANK ? "documents" : "input";
        try (JsonParser p = JSON.createParser(body, 0, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return -1;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals(member) && t == JsonToken.START_ARRAY) {
                    int n = 0;
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        n++;
                        p.skipChildren();
                    }
                    return n;
                }
                if (name.equals(member) && t == JsonToken.VALUE_STRING) {
                    return 1;
                }
                p.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * @param endpoint {@link ApiEndpoint#EMBEDDINGS} or {@link ApiEndpoint#RERANK}; not null
     * @param body     the whole body, UTF-8 JSON; not null
     * @param len      bytes of {@code body} to read
     * @param expected inputs (or documents) sent ({@link #inputsOf}), or -1 when unknown (no count check)
     * @return what it held, with an error when it is not JSON, lacks the list, or answers another count; never null
     */
    public static Read read(ApiEndpoint endpoint, byte[] body, int len, int expected) {
        boolean rerank = endpoint == ApiEndpoint.RERANK;
        String list = rerank ? "results" : "data";
        int items = -1;
        int withoutVector = 0;
        long prompt = -1;
        long total = -1;
        try (JsonParser p = JSON.createParser(body, 0, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Read(0, -1, RequestError.of(ErrorTypes.VALUE_ERROR, "the " + endpoint.label()
                        + " answer is not a JSON object"));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals(list) && t == JsonToken.START_ARRAY) {
                    items = 0;
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        items++;
                        if (!rerank && !hasVector(p)) {
                            withoutVector++;
                        } else if (rerank) {
                            p.skipChildren();
                        }
                    }
                } else if (name.equals("usage") && t == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String u = p.currentName();
                        JsonToken v = p.nextToken();
                        if (v == JsonToken.VALUE_NUMBER_INT && u.equals("prompt_tokens")) {
                            prompt = p.getLongValue();
                        } else if (v == JsonToken.VALUE_NUMBER_INT && u.equals("total_tokens")) {
                            total = p.getLongValue();
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            return new Read(Math.max(0, items), -1, RequestError.of(ErrorTypes.VALUE_ERROR, "the " + endpoint.label()
                    + " answer is not valid JSON: " + e.getMessage()));
        }
        long tokens = prompt >= 0 ? prompt : total;
        if (items < 0) {
            return new Read(0, tokens, RequestError.of(ErrorTypes.VALUE_ERROR, "the " + endpoint.label()
                    + " answer has no " + list + " array"));
        }
        if (withoutVector > 0) {
            return new Read(items, tokens, RequestError.of(ErrorTypes.VALUE_ERROR, withoutVector + " of " + items
                    + " items of data have no embedding"));
        }
        if (expected >= 0 && items != expected) {
            return new Read(items, tokens, RequestError.of(ErrorTypes.VALUE_ERROR, "the " + endpoint.label()
                    + " answer has " + items + " " + (rerank ? "results" : "embeddings") + " for " + expected
                    + (rerank ? " documents" : " inputs")));
        }
        return new Read(items, tokens, null);
    }

    /** Reads one item of {@code data} (the parser on its first token): whether it has an embedding. */
    private static boolean hasVector(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return false;
        }
        boolean vector = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (name.equals("embedding") && (v == JsonToken.START_ARRAY || v == JsonToken.VALUE_STRING)) {
                vector = true;
            }
            p.skipChildren();
        }
        return vector;
    }
}
