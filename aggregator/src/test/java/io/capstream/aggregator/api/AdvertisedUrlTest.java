package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/** Parsing and formatting of the advertised HTTP address (Kafka Streams application.server). */
class AdvertisedUrlTest {
    @Test
    void parsesHttpHostPort() {
        AdvertisedUrl u = AdvertisedUrl.parse("http://agg-2.internal:8089/");
        assertEquals("agg-2.internal", u.host());
        assertEquals(8089, u.port());
        assertEquals("agg-2.internal:8089", u.endpoint());
        assertEquals("http://agg-2.internal:8089", u.toString());
        assertTrue(u.is(new HostInfo("agg-2.internal", 8089)));
        assertFalse(u.is(new HostInfo("agg-2.internal", 8088)));
    }

    @Test
    void ipv6LiteralsKeepTheirBrackets() {
        AdvertisedUrl u = AdvertisedUrl.parse("http://[fd00::7]:8088");
        assertEquals("fd00::7", u.host());
        assertEquals("[fd00::7]:8088", u.endpoint());
        assertEquals(u, AdvertisedUrl.of(HostInfo.buildFromEndpoint(u.endpoint())));
    }

    @Test
    void refusesWhatIsNotHttpHostPortWithOneLineMessages() {
        assertEquals("expected http://HOST:PORT, got 'h:8088'",
                assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("h:8088")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("https://h:8088"));
        assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("http://h"));
        assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("http://h:8088/api"));
        assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("http://h:8088?x=1"));
        assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("http://h:99999"));
        String wildcard = assertThrows(IllegalArgumentException.class, () -> AdvertisedUrl.parse("http://0.0.0.0:8088"))
                .getMessage();
        assertThat(wildcard).contains("wildcard");
    }

    @Test
    void defaultIsTheBindAddressOrForAWildcardTheHostName() {
        assertEquals(new AdvertisedUrl("127.0.0.1", 8088), new ApiConfig("127.0.0.1", 0).advertisedOr(8088));
        AdvertisedUrl any = new ApiConfig("0.0.0.0", 0).advertisedOr(8090);
        assertFalse(AdvertisedUrl.isWildcard(any.host()), any.toString());
        assertEquals(8090, any.port());
        AdvertisedUrl set = AdvertisedUrl.parse("http://agg-1:9000");
        assertEquals(set, new ApiConfig("0.0.0.0", 0, set).advertisedOr(8090));
    }
}
