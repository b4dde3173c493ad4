package io.capstream.cli.check;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ClientTls;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.text.SecretMask;
import java.util.List;

/**
 * The endpoint {@code capstream check} probes and how each request is addressed.
 *
 * @param baseUrl  the base URL without user-info and without a trailing {@code /}; not null
 * @param model    the model id sent; not null
 * @param endpoint chat or completions; not null
 * @param apiKey   the credentials sent as {@code Authorization}; not null
 * @param headers  the {@code -H} headers; not null
 * @param tls      how an https certificate is checked; not null
 * @param mask     every secret of the target, masked in all that is printed or stored; not null
 */
public record ProbeTarget(String baseUrl, String model, ApiEndpoint endpoint, ApiKey apiKey, List<ExtraHeader> headers,
                         ClientTls tls, SecretMask mask) {
    /** Copies the headers, drops a trailing slash. */
    public ProbeTarget {
        baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        headers = List.copyOf(headers);
    }

    /** @return the URL requests are posted to, e.g. {@code <base>/chat/completions} */
    public String apiUrl() {
        return baseUrl + endpoint.path();
    }

    /** @return {@code <base>/models} */
    public String modelsUrl() {
        return baseUrl + "/models";
    }

    /** @return the server root's {@code /metrics}: the base URL without a last {@code /v1}, then {@code /metrics} */
    public String metricsUrl() {
        String root = baseUrl.endsWith("/v1") ? baseUrl.substring(0, baseUrl.length() - 3) : baseUrl;
        return root + "/metrics";
    }
}
