package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The simulated engine's embeddings and rerank requests (issue 30): {@code POST /v1/embeddings} with
 * {@code {"model","input"}} (a string or an array of strings) answered in OpenAI's shape, and {@code POST /v1/rerank}
 * with {@code {"model","query","documents"}} answered in the Jina / llama.cpp shape. The vectors
 * ({@value #DIMENSIONS} dimensions, unit length) and relevance scores are deterministic functions of the text; the
 * input tokens are the engine's estimate ({@link TokenEstimator}) of each input (rerank: of the query and each
 * document, as a cross-encoder reads them together), reported as {@code usage.prompt_tokens} and
 * {@code total_tokens}. Immutable.
 *
 * @param model     the model id to answer with
 * @param query     the rerank query, or null for embeddings
 * @param texts     the inputs or documents, in order
 * @param tokens    the input tokens of the whole request
 */
record SimInputs(String model, String query, List<String> texts, int tokens) {
    /** Dimensions of the simulated embeddings. */
    static final int DIMENSIONS = 16;

    /**
     * @param body         the request body
     * @param rerank       whether it came to {@code /rerank}
     * @param defaultModel the engine's model, for a body without one
     * @return the request
     * @throws IllegalArgumentException when the body lacks its inputs (the message is the 400's)
     */
    static SimInputs parse(JsonObject body, boolean rerank, String defaultModel) {
        if (body == null) {
            throw new IllegalArgumentException("the body must be a JSON object");
        }
        String model = body.getValue("model") instanceof String m ? m : defaultModel;
        String query = null;
        if (rerank) {
            if (!(body.getValue("query") instanceof String q)) {
                throw new IllegalArgumentException("\"query\" must be a string");
            }
            query = q;
        }
        String member = rerank ? "documents" : "input";
        Object in = body.getValue(member);
        List<String> texts = new ArrayList<>();
        if (in instanceof String s && !rerank) {
            texts.add(s);
        } else if (in instanceof JsonArray a && !a.isEmpty()) {
            for (Object o : a) {
                if (!(o instanceof String s)) {
                    throw new IllegalArgumentException("\"" + member + "\" must hold strings");
                }
                texts.add(s);
            }
        } else {
            throw new IllegalArgumentException("\"" + member + "\" must be " + (rerank ? "" : "a string or ")
                    + "a non-empty array of strings");
        }
        int queryTokens = query == null ? 0 : TokenEstimator.tokens(query.length());
        long tokens = 0;
        for (String t : texts) {
            tokens += TokenEstimator.tokens(t.length()) + queryTokens;
        }
        return new SimInputs(model, query, List.copyOf(texts), (int) Math.min(Integer.MAX_VALUE, tokens));
    }

    /** @return the answer: {@code data[].embedding} for embeddings, {@code results[]} for rerank, with usage */
    JsonObject answer() {
        JsonObject usage = new JsonObject().put("prompt_tokens", tokens).put("total_tokens", tokens);
        JsonArray items = new JsonArray();
        for (int i = 0; i < texts.size(); i++) {
            if (query == null) {
                items.add(new JsonObject().put("object", "embedding").put("index", i)
                        .put("embedding", vector(texts.get(i))));
            } else {
                double score = new SplittableRandom(seed(query) * 31 + seed(texts.get(i))).nextDouble();
                items.add(new JsonObject().put("index", i).put("relevance_score", score));
            }
        }
        return query == null
                ? new JsonObject().put("object", "list").put("model", model).put("data", items).put("usage", usage)
                : new JsonObject().put("model", model).put("object", "list").put("results", items).put("usage", usage);
    }

    /** @return a unit vector of {@value #DIMENSIONS} dimensions drawn from the text's hash */
    static JsonArray vector(String text) {
        SplittableRandom r = new SplittableRandom(seed(text));
        double[] v = new double[DIMENSIONS];
        double norm = 0;
        for (int i = 0; i < DIMENSIONS; i++) {
            v[i] = r.nextDouble() * 2 - 1;
            norm += v[i] * v[i];
        }
        norm = Math.sqrt(norm);
        JsonArray a = new JsonArray();
        for (double x : v) {
            a.add(norm == 0 ? 0.0 : x / norm);
        }
        return a;
    }

    private static long seed(String text) {
        long h = 1125899906842597L;
        for (int i = 0; i < text.length(); i++) {
            h = 31 * h + text.charAt(i);
        }
        return h;
    }
}
