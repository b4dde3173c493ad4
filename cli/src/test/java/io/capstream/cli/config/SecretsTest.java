package io.capstream.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void secretKeys() {
        for (String k : new String[] {"sasl.jaas.config", "ssl.keystore.password", "ssl.key.password", "ssl.truststore.password",
                "ssl.keystore.key", "basic.auth.user.info", "sasl.oauthbearer.client.credentials.client.secret",
                "--schema-registry-basic-auth", "--schema-registry-bearer-token", "--api-key",
                "CAPSTREAM_SCHEMA_REGISTRY_BEARER_TOKEN", "CAPSTREAM_API_KEY", "OPENAI_API_KEY"}) {
            assertTrue(Secrets.isSecret(k), k);
        }
        for (String k : new String[] {"security.protocol", "sasl.mechanism", "key.serializer", "value.deserializer",
                "--max-tokens", "--bootstrap-servers", "--http-port", "ssl.truststore.location", "acks",
                "basic.auth.credentials.source", "ssl.keystore.type", null}) {
            assertFalse(Secrets.isSecret(k), String.valueOf(k));
        }
    }

    @Test
    void redactsValuesAndUrls() {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("security.protocol", "SASL_SSL");
        in.put("sasl.jaas.config", "x required password=\"p\";");
        in.put("url", "https://user:pw@host:8081/apis");
        in.put("nothing", null);
        Map<String, String> out = Secrets.redact(in);
        assertEquals("SASL_SSL", out.get("security.protocol"));
        assertEquals(Secrets.MASK, out.get("sasl.jaas.config"));
        // the same mask as in events and reports (io.capstream.schemas.text.Redaction): the URL stays a URL
        assertEquals("https://***@host:8081/apis", out.get("url"));
        assertEquals(null, out.get("nothing"));
        assertEquals("[security.protocol, sasl.jaas.config, url, nothing]", out.keySet().toString());
        assertEquals("ssl.key.password=[hidden]", Secrets.redactSetting("ssl.key.password=abc"));
        assertEquals("linger.ms=5", Secrets.redactSetting("linger.ms=5"));
        assertEquals("http://h:1/x", Secrets.redactUrls("http://h:1/x"));
        assertEquals("https://***@h/v1", Secrets.redactUrls("https://user:p@ss@h/v1"), "a raw @ in the password");
    }
}
