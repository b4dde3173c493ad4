package io.capstream.loadgen.client;

/**
 * A request failure as recorded (spec §6).
 *
 * @param type      reference error class name ({@link ErrorTypes})
 * @param message   text, at most 2048 characters, {@code <empty exception message>} when empty
 * @param truncated whether the original text was longer than 2048 characters
 */
public record RequestError(String type, String message, boolean truncated) {

    /**
     * @param type    error class name
     * @param message original text (null counts as empty)
     * @return the error with the spec's message rules applied
     */
    public static RequestError of(String type, String message) {
        if (message == null || message.isEmpty()) {
            return new RequestError(type, ErrorTypes.EMPTY_MESSAGE, false);
        }
        if (message.length() > ErrorTypes.MAX_MESSAGE) {
            return new RequestError(type, message.substring(0, ErrorTypes.MAX_MESSAGE), true);
        }
        return new RequestError(type, message, false);
    }
}
