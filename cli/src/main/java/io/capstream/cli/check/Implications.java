package io.capstream.cli.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The capstream options the findings imply ({@code implied_options}): {@code --max-model-len N} when
 * {@code /models} gives no window (N from the oversize error when it states one), {@code --no-thinking} when
 * reasoning is on by default and can be turned off, {@code --prompt-salt run} when the prefix cache is visible (so
 * that a run does not measure the cache of an earlier one), {@code --endpoint completions} when the check ran on it.
 */
final class Implications {
    private Implications() {
    }

    /**
     * @param byKey    the other findings by key; not null
     * @param o        the exchanges; not null
     * @param endpoint the {@code --endpoint} label checked
     * @return the finding
     */
    static Finding of(Map<String, Finding> byKey, Observations o, String endpoint) {
        List<String> opts = new ArrayList<>();
        List<String> why = new ArrayList<>();
        if (!"chat".equals(endpoint)) {
            opts.add("--endpoint " + endpoint);
        }
        if (is(byKey, "context_window", "unknown")) {
            Integer stated = LimitFindings.windowInError(o.oversize());
            opts.add("--max-model-len " + (stated != null ? stated : "N"));
            why.add("no window from /models");
        }
        if (is(byKey, "thinking_off", "yes")) {
            opts.add("--no-thinking");
            why.add("reasoning on by default (or keep it and read TTFO/TTFT apart)");
        }
        if (is(byKey, "prefix_cache", "visible")) {
            opts.add("--prompt-salt run");
            why.add("prefix cache visible: fresh prompts per run");
        }
        if (opts.isEmpty()) {
            return Finding.of("implied_options", Finding.Verdict.INFO, "none", "the defaults fit this endpoint");
        }
        return Finding.of("implied_options", Finding.Verdict.INFO, String.join(" ", opts),
                why.isEmpty() ? "run with these options" : String.join("; ", why));
    }

    private static boolean is(Map<String, Finding> byKey, String key, String value) {
        Finding f = byKey.get(key);
        return f != null && f.value().equals(value);
    }
}
