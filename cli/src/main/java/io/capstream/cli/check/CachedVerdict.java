package io.capstream.cli.check;

import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.text.BaseUrlHints;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.text.Redaction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The line {@code capstream run} prints before T0 about the endpoint's conformance: the verdict of the last
 * {@code capstream check} of the same base URL, model and endpoint within {@link CheckCache#MAX_AGE}
 * ({@link CheckCache}), or a hint to run one. Reads one small file and sends nothing: the run's own load is all that
 * reaches the endpoint, and the run does not start later. Nothing for the built-in engine. The verdict's implied
 * options ({@code ; implies ...}) leave out those the run already has ({@link #withoutGiven}).
 */
public final class CachedVerdict {
    private CachedVerdict() {
    }

    /**
     * @param baseUrl   the run's base URL (its user-info is masked in the line, {@code ***@}), or null for the built-in
     *                  engine
     * @param model     the model id
     * @param endpoint  the endpoint label (chat, completions, ...)
     * @param request   the run's request options (which implied options it already has); not null
     * @param cache     the cache; not null
     * @param now       the current time
     * @return the line (without the command prefix), or empty for the built-in engine
     */
    public static Optional<String> line(String baseUrl, String model, String endpoint, RequestShape request,
                                        CheckCache cache, Instant now) {
        if (baseUrl == null) {
            return Optional.empty();
        }
        String url = normalized(baseUrl);
        Optional<CheckCache.Entry> e = cache.get(url, model, endpoint, now);
        if (e.isPresent()) {
            long minutes = Duration.between(e.get().checkedAt(), now).toMinutes();
            String age = minutes < 60 ? minutes + " min" : minutes / 60 + " h";
            return Optional.of("endpoint check (capstream check, " + age + " ago): "
                    + withoutGiven(e.get().verdict(), request));
        }
        if (!"chat".equals(endpoint) && !"completions".equals(endpoint)) {
            return Optional.empty();
        }
        // a masked URL (http://***@host) would not work pasted back: the command line then reads the variable
        String shown = shown(baseUrl);
        return Optional.of("endpoint check: none in the last 24 h for this target ('capstream check --base-url "
                + BaseUrlHints.commandLineValue(shown) + " --model " + model
                + (endpoint.equals("chat") ? "" : " --endpoint " + endpoint) + "' probes its stream in seconds"
                + (BaseUrlHints.masked(shown) ? "; set " + BaseUrlHints.BASE_URL_VARIABLE + " to your --base-url, "
                + shown + " with its credentials, which are not printed" : "") + ")");
    }

    /**
     * {@link #line} once per target and command: a sweep asks before every step, and the verdict's age changes
     * between steps ({@code 7 min ago}, then {@code 8 min ago}), so the line itself cannot tell that it was shown.
     *
     * @param baseUrl   the run's base URL (its user-info masked in the line), or null for the built-in engine
     * @param model     the model id
     * @param endpoint  the endpoint label (chat, completions, ...)
     * @param request   the run's request options (which implied options it already has); not null
     * @param cache     the cache; not null
     * @param now       the current time
     * @param shown     what this command has shown so far (its notices); a key for the target is added to it
     * @return the line the first time for this target, else empty
     */
    public static Optional<String> lineOnce(String baseUrl, String model, String endpoint, RequestShape request,
                                            CheckCache cache, Instant now, Set<String> shown) {
        String key = "endpoint check of " + (baseUrl == null ? "" : normalized(baseUrl)) + "\n" + model + "\n"
                + endpoint;
        if (shown.contains(key)) {
            return Optional.empty();
        }
        Optional<String> l = line(baseUrl, model, endpoint, request, cache, now);
        l.ifPresent(x -> shown.add(key));
        return l;
    }

    /**
     * The verdict {@code capstream check} cached, without the implied options the run already has: {@code --endpoint}
     * (the cache is keyed by it), {@code --no-thinking} when the run turns thinking off ({@code --no-thinking} or
     * {@code --thinking-mode disabled}), {@code --max-model-len} when it gives one, {@code --prompt-salt} when its
     * prompts are salted; without {@code ; implies} when none remains. The {@code check} command's own line keeps them
     * all: there the implied options are the point.
     *
     * @param verdict the cached verdict line
     * @param request the run's request options; not null
     * @return the verdict for this run
     */
    static String withoutGiven(String verdict, RequestShape request) {
        int at = verdict.lastIndexOf(CheckReport.IMPLIES);
        if (at < 0) {
            return verdict;
        }
        List<String> left = new ArrayList<>();
        for (String option : verdict.substring(at + CheckReport.IMPLIES.length()).split(" (?=--)")) {
            if (!given(option.split(" ", 2)[0], request)) {
                left.add(option);
            }
        }
        return verdict.substring(0, at) + (left.isEmpty() ? "" : CheckReport.IMPLIES + String.join(" ", left));
    }

    /** @return whether the run already has the implied option named {@code name} (e.g. {@code --no-thinking}) */
    private static boolean given(String name, RequestShape r) {
        return switch (name) {
            case "--endpoint" -> true;
            case "--no-thinking" -> r.resolvedThinkingMode() == ThinkingMode.DISABLED;
            case "--max-model-len" -> r.maxModelLen() != 0;
            case "--prompt-salt" -> r.promptSalt() != null;
            default -> false;
        };
    }

    /** @return the base URL as the console shows it: user-info masked ({@code ***@}, as in reports), no trailing "/" */
    private static String shown(String baseUrl) {
        String url = Redaction.url(baseUrl.strip());
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** @return the base URL without user-info and a trailing slash, as the cache keys it */
    private static String normalized(String baseUrl) {
        String url = HttpUrls.withoutUserInfo(baseUrl.strip());
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
