package io.capstream.schemas.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** URL checks done before anything is sent (issue 11, item 4): one readable problem, or null. */
class HttpUrlsTest {
    @Test
    void acceptsOrdinaryEndpointUrls() {
        for (String ok : new String[] {"http://127.0.0.1:8000/v1", "https://api.example.com/v1", "http://[::1]:8000/v1",
                "http://localhost/v1/", "http://vllm_server:8000/v1", "HTTP://Host:1", "http://h:65535",
                "http://user:pw@host:8000/v1", "https://registry.example.com/apis/ccompat/v7"}) {
            assertNull(HttpUrls.problem(ok), ok);
        }
    }

    @Test
    void namesWhatIsWrong() {
        assertEquals("is not a valid URL (Expected closing bracket for IPv6 address at index 11)",
                HttpUrls.problem("http://[::1"));
        assertEquals("has port 70000, outside 1..65535", HttpUrls.problem("http://127.0.0.1:70000/v1"));
        assertEquals("has port 0, outside 1..65535", HttpUrls.problem("http://127.0.0.1:0/v1"));
        assertEquals("has port 'abc', not a number", HttpUrls.problem("http://h:abc/v1"));
        assertEquals("has an empty port", HttpUrls.problem("http://h:/v1"));
        assertEquals("must start with http:// or https://", HttpUrls.problem("ftp://h/v1"));
        assertEquals("must start with http:// or https://", HttpUrls.problem("127.0.0.1:8000/v1"));
        assertEquals("has no host", HttpUrls.problem("http:///v1"));
        assertEquals("has no host", HttpUrls.problem("http://user@:80/v1"));
        assertEquals("must not have a query or fragment (paths are appended to it)",
                HttpUrls.problem("http://h:1/v1?x=1"));
        assertEquals("must not have a query or fragment (paths are appended to it)", HttpUrls.problem("http://h/v1#a"));
        assertEquals("is empty", HttpUrls.problem(" "));
        assertEquals("is empty", HttpUrls.problem(null));
        assertEquals("is not a valid URL (Illegal character in authority at index 7)",
                HttpUrls.problem("http://a b/v1"));
    }

    @Test
    void userInfoIsSplitOffForTheRequest() {
        assertEquals("user:p%40ss", HttpUrls.userInfo("http://user:p%40ss@h:1/v1"));
        assertNull(HttpUrls.userInfo("http://h:1/v1"));
        assertEquals("http://h:1/v1", HttpUrls.withoutUserInfo("http://user:p%40ss@h:1/v1"));
        assertEquals("http://[::1]:1/v1", HttpUrls.withoutUserInfo("http://u@[::1]:1/v1"));
        assertEquals("http://h:1/v1", HttpUrls.withoutUserInfo("http://h:1/v1"));
    }
}
