package io.capstream.loadgen.sim;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * How the simulated engine turns a conversation into prompt text, the same way for every API so that the prefix cache
 * sees a history re-sent in any API's form as the same text: the texts of the messages in order (no role markers, as
 * the single-turn prompts have always been counted), an assistant's tool call as {@link #toolCall}, a tool result as
 * its text. Reasoning that a client sends back is not part of the prompt (chat templates drop it).
 */
final class PromptText {
    private PromptText() {
    }

    /**
     * @param name          the function's name
     * @param argumentsJson its arguments as compact JSON text
     * @return the prompt text of a tool call: {@code <tool_call>NAME ARGUMENTS</tool_call>}
     */
    static String toolCall(String name, String argumentsJson) {
        return "<tool_call>" + name + " " + argumentsJson + "</tool_call>";
    }

    /**
     * Appends the text of a content value: a string, or an array of parts whose {@code text} (chat, Responses
     * {@code input_text}/{@code output_text}, Messages {@code text} blocks) is taken; an image part (chat
     * {@code image_url}, Responses {@code input_image}, Messages {@code image}) is its {@link SimImages} placeholder
     * (issue 30); other parts are skipped.
     *
     * @param out     receives the text
     * @param content the content value (may be null)
     * @throws IllegalArgumentException for an image the engine cannot read
     */
    static void appendContent(StringBuilder out, Object content) {
        if (content instanceof String s) {
            out.append(s);
        } else if (content instanceof JsonArray parts) {
            for (Object p : parts) {
                if (p instanceof JsonObject po && po.getValue("text") instanceof String t) {
                    out.append(t);
                } else if (p instanceof JsonObject po) {
                    appendImage(out, po);
                }
            }
        }
    }

    /**
     * Appends an image part's placeholder ({@link SimImages}); other parts add nothing.
     *
     * @param out  receives the placeholder
     * @param part a content part or block
     * @throws IllegalArgumentException for an image the engine cannot read
     */
    static void appendImage(StringBuilder out, JsonObject part) {
        Object type = part.getValue("type");
        if ("image_url".equals(type)) {
            Object url = part.getValue("image_url");
            out.append(SimImages.placeholderOfUrl(url instanceof JsonObject o ? o.getValue("url") : url,
                    "image_url"));
        } else if ("input_image".equals(type)) {
            out.append(SimImages.placeholderOfUrl(part.getValue("image_url"), "input_image.image_url"));
        } else if ("image".equals(type)) {
            Object source = part.getValue("source");
            if (!(source instanceof JsonObject so) || !"base64".equals(so.getValue("type"))) {
                throw new IllegalArgumentException("image.source: the simulated engine reads only base64 image"
                        + " sources ({\"type\":\"base64\",\"media_type\":..,\"data\":..})");
            }
            out.append(SimImages.placeholder(so.getValue("data"), "image.source.data"));
        }
    }

    /**
     * @param arguments a tool call's arguments: JSON text (chat, Responses) or an object (Messages' {@code input})
     * @return compact JSON text of the arguments ({@code {}} when absent)
     */
    static String arguments(Object arguments) {
        if (arguments instanceof String s) {
            return s;
        }
        if (arguments instanceof JsonObject o) {
            return o.encode();
        }
        return "{}";
    }
}
