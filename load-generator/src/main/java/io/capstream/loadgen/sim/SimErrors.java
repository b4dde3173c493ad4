package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonObject;

/**
 * Error bodies of the simulated engine in each API's shape: OpenAI's
 * {@code {"error":{"message","type","param","code"}}} (chat, completions, Responses) and Anthropic's
 * {@code {"type":"error","error":{"type","message"}}} (Messages).
 */
final class SimErrors {
    private SimErrors() {
    }

    /**
     * @param api     the API the request came by
     * @param status  the HTTP status (400, 429, 500, ...)
     * @param message the message
     * @param type    the OpenAI-style error type (e.g. {@code BadRequestError}); Messages use Anthropic's type for
     *                the status instead
     * @param param   the offending parameter, or null
     * @param code    the OpenAI-style code, or null for the status
     * @return the JSON body
     */
    static JsonObject body(SimApi api, int status, String message, String type, String param, String code) {
        if (api == SimApi.MESSAGES) {
            return new JsonObject().put("type", "error")
                    .put("error", new JsonObject().put("type", anthropicType(status)).put("message", message));
        }
        return new JsonObject().put("error", new JsonObject().put("message", message).put("type", type)
                .put("param", param).put("code", code == null ? (Object) status : code));
    }

    /** @param status an HTTP status @return Anthropic's error type for it */
    static String anthropicType(int status) {
        return switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> "api_error";
        };
    }
}
