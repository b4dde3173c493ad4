package io.capstream.schemas.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Issue 26 item 8: failures are shown in capstream's words, not the reference's Python texts. */
class FailureWordingTest {
    private static void says(String type, String message, String expected) {
        assertEquals(expected, FailureWording.of(type, message), type + " / " + message);
    }

    @Test
    void connectFailures() {
        says("URLError", "<urlopen error [Errno 111] Connection refused>",
                "connection refused: nothing listened at the endpoint");
        says("URLError", "<urlopen error timed out>", "no connection within --timeout (connect timed out)");
        says("URLError", "<urlopen error [Errno 113] No route to host>", "no route to the endpoint's host");
        says("URLError", "<urlopen error [Errno -2] Name or service not known (nohost.invalid)>",
                "the endpoint's host name does not resolve (nohost.invalid)");
        says("URLError", "<urlopen error SSLHandshakeException: Failed to create SSL connection>",
                "cannot connect: SSLHandshakeException: Failed to create SSL connection");
    }

    @Test
    void httpAndStreamFailures() {
        says("HTTPError", "HTTP Error 404: Not Found: <html>nope</html>", "HTTP 404 Not Found: <html>nope</html>");
        says("TimeoutError", "timed out", "no data within --timeout (read timed out)");
        says("ConnectionResetError", "[Errno 104] Connection reset by peer", "the server reset the connection");
        says("RemoteDisconnected", "Remote end closed connection without response",
                "the server closed the connection before answering");
        says("IncompleteRead", "IncompleteRead(512 bytes read): the server closed the connection before the end of"
                + " the response body", "response cut after 512 bytes: the server closed the connection before its end");
        says("ValueError", "stream completed without visible content",
                "the stream ended without visible content (no non-empty content delta)");
        says("TypeError", "'NoneType' object is not iterable (\"choices\" is null)", "malformed stream: \"choices\" is null");
        says("TypeError", "stream chunk is a JSON array, not an object ('list' object has no attribute 'get')",
                "malformed stream: stream chunk is a JSON array, not an object");
    }

    @Test
    void unknownTextsStayAndEmptyOnesNameTheType() {
        says("ValueError", "server sent an error object inside the HTTP 200 stream: oom",
                "server sent an error object inside the HTTP 200 stream: oom");
        says("HTTPError", "<empty exception message>", "HTTPError (no message)");
        says("URLError", null, "cannot connect");
        says(null, null, "failed");
    }
}
