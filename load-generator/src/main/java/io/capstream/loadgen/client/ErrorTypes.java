package io.capstream.loadgen.client;

/**
 * The reference's error class names, used as {@code error_type} of RequestFailed (spec §6, §12.2),
 * and the message rules: at most {@value #MAX_MESSAGE} characters, {@value #EMPTY_MESSAGE} for an
 * empty text.
 */
public final class ErrorTypes {
    /** Connection could not be opened (refused, unknown host, connect timeout). */
    public static final String URL_ERROR = "URLError";
    /**
     * Non-2xx status: {@code HTTP Error <code>: <reason>}, then {@code ": "} and the server's message
     * when its body has one ({@link NonStreamBody}).
     */
    public static final String HTTP_ERROR = "HTTPError";
    /** No byte for {@code --timeout} seconds while waiting for headers or reading: {@code timed out}. */
    public static final String TIMEOUT_ERROR = "TimeoutError";
    /** Body cut before its end (chunked or Content-Length). */
    public static final String INCOMPLETE_READ = "IncompleteRead";
    /** Connection closed before any response head. */
    public static final String REMOTE_DISCONNECTED = "RemoteDisconnected";
    /**
     * No visible content, too small a context, an error object inside the stream, or a 2xx that is
     * JSON instead of a stream ({@code endpoint did not stream (Content-Type: …): …}).
     */
    public static final String VALUE_ERROR = "ValueError";
    /** Malformed chunk structure ({@code "choices": null}, a non-object chunk). */
    public static final String TYPE_ERROR = "TypeError";
    /** Anything else at the connection level. */
    public static final String OS_ERROR = "OSError";
    /**
     * The client closed the stream on purpose ({@code --cancel-rate}, issue 30): not a failure of the endpoint; the
     * event is a RequestFailed with {@code cancelled} true, counted apart from completed and failed requests.
     */
    public static final String CANCELLED = "Cancelled";

    /** Message of a stream without any non-empty content delta (spec §4.3). */
    public static final String NO_VISIBLE_CONTENT = "stream completed without visible content";
    /**
     * What follows {@link #NO_VISIBLE_CONTENT} and {@code ": "} when the answer had tool calls but no content in a run
     * that does not send tools (issue 29): then {@code " (<n> tool call[s], no text); "} and {@link #SEND_TOOLS}.
     */
    public static final String TOOL_CALL_ANSWER = "the model answered with a tool call";
    /** The hint at the end of a {@link #TOOL_CALL_ANSWER} failure. */
    public static final String SEND_TOOLS = "send --tools to measure tool calls";
    /** Longest recorded message, characters (spec §6). */
    public static final int MAX_MESSAGE = 2048;
    /** Recorded instead of an empty message (spec §6). */
    public static final String EMPTY_MESSAGE = "<empty exception message>";

    private ErrorTypes() {
    }
}
