package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.text.SecretMask;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link RunSecrets}: every secret a run was given, and only those, is masked. */
class RunSecretsTest {
    private static RunConfig config(String baseUrl, String serverMetrics, String... headers) {
        return RunConfig.of(TargetConfig.of(baseUrl, "m"))
                .withServerMetrics(ServerMetricsConfig.parse(serverMetrics))
                .withTarget(t -> t.withHeaders(java.util.Arrays.stream(headers).map(ExtraHeader::parse).toList()));
    }

    @Test
    void collectsTheKeyTheUrlPasswordsAndTheCredentialHeaders() {
        String basic = Base64.getEncoder().encodeToString("hu:hdrPass99".getBytes(StandardCharsets.UTF_8));
        SecretMask mask = RunSecrets.of(config("http://bu:basePass1@h:8000/v1", "http://su:smPass22@h:9/metrics",
                        "X-Api-Key: xkey-333", "Proxy-Authorization: Basic " + basic, "Cookie: a=cookieVal44; b=c",
                        "X-Auth-Token: tok-5555", "X-Tenant: team-a", "X-Tokenizer: llama3"),
                ApiKey.fromEnv("K", Map.of("K", "envKey666")::get));
        String echoed = "seen: basePass1 smPass22 xkey-333 " + basic + " hdrPass99 cookieVal44 tok-5555 envKey666"
                + " Bearer envKey666 team-a llama3";
        assertEquals("seen: *** *** *** *** *** *** *** *** Bearer *** team-a llama3", mask.apply(echoed),
                "keys, URL passwords, credential headers (the scheme's token, a basic password, cookie values)"
                        + " masked; other headers' values kept");
    }

    @Test
    void aBearerHeaderIsMaskedWholeAndAfterItsScheme() {
        SecretMask mask = RunSecrets.of(config("http://h/v1", "off", "Authorization: Bearer bearer-777"), ApiKey.none());
        assertEquals("got 'Authorization: ***' then '***'", mask.apply("got 'Authorization: Bearer bearer-777' then 'bearer-777'"));
    }

    @Test
    void theApiKeyIsReadFromTheEnvironmentAndAMissingVariableIsNoKey() {
        RunConfig c = RunConfig.of(TargetConfig.of("http://h/v1", "m")).withTarget(t -> t.withApiKeyEnv("K"));
        assertEquals("key ***", RunSecrets.of(c, Map.of("K", " envKey888 ")::get).apply("key envKey888"));
        assertTrue(RunSecrets.of(c, k -> null).isEmpty());
    }

    @Test
    void credentialHeaderNames() {
        for (String name : List.of("Authorization", "proxy-authorization", "Cookie", "X-Api-Key", "api-key", "X-API-KEY",
                "Ocp-Apim-Subscription-Key", "X-Auth-Token", "X_Client_Secret", "X-Goog-Api-Key", "X-Session-Id")) {
            assertTrue(new ExtraHeader(name, "v").carriesCredentials(), name);
        }
        for (String name : List.of("X-Tenant", "X-Tokenizer", "User-Agent", "X-Route", "Keep-Alive", "X-Monkey")) {
            assertFalse(new ExtraHeader(name, "v").carriesCredentials(), name);
        }
    }
}
