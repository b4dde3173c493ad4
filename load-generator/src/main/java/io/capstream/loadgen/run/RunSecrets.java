package io.capstream.loadgen.run;

import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.SecretMask;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that collects the secrets a run was given: the API key ({@code --api-key-env}), the credentials in
 * the user-info of its URL options ({@code --base-url}, {@code --server-metrics}: the password raw and
 * percent-decoded, and the basic-auth token sent for the base URL's), and the values of the {@code -H} headers that
 * carry credentials ({@link ExtraHeader#carriesCredentials()}: {@code Authorization}, {@code Proxy-Authorization},
 * {@code Cookie}, {@code *-Key}, {@code *-Token}, ...). The {@link SecretMask} it makes is applied where text leaves
 * the process: every event ({@link EventFactory}), the server-metrics records, the console and the report files.
 * Stateless.
 */
public final class RunSecrets {
    private RunSecrets() {
    }

    /**
     * @param config the run's configuration; not null (an unbound simulated target has no base URL)
     * @param key    the credentials sent in the Authorization header; null for none
     * @return the mask of every secret of the run
     */
    public static SecretMask of(RunConfig config, ApiKey key) {
        List<String> secrets = new ArrayList<>();
        if (key != null) {
            secrets.addAll(key.secrets());
        }
        secrets.addAll(urlSecrets(config.target().baseUrl()));
        if (config.serverMetrics() != null) {
            secrets.addAll(urlSecrets(config.serverMetrics().url()));
        }
        for (ExtraHeader h : config.target().headers()) {
            secrets.addAll(h.secretValues());
        }
        return SecretMask.of(secrets);
    }

    /**
     * As {@link #of(RunConfig, ApiKey)}, reading the key of {@code --api-key-env} from the environment (a missing
     * variable is a usage error said elsewhere: no key then).
     *
     * @param config the run's configuration; not null
     * @param env    environment lookup; not null
     * @return the mask of every secret of the run
     */
    public static SecretMask of(RunConfig config, java.util.function.Function<String, String> env) {
        ApiKey key;
        try {
            key = ApiKey.fromEnv(config.target().apiKeyEnv(), env);
        } catch (IllegalArgumentException e) {
            key = ApiKey.none();
        }
        return of(config, key);
    }

    /**
     * @param url a URL option's value; may be null
     * @return the credentials of its user-info (the password raw and percent-decoded, and the basic-auth token
     *         made of the user-info); empty without user-info
     */
    public static List<String> urlSecrets(String url) {
        String info = url == null ? null : HttpUrls.userInfo(url);
        if (info == null) {
            return List.of();
        }
        return ApiKey.basic(info).secrets(); // a user name alone is not a secret
    }
}
