package io.capstream.aggregator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-row cached-token values for an imported artifact, which keeps only the run's
 * {@code prefix_cache_hit_avg} (spec §4.3, §8.2: the mean over requests of
 * {@code cached_tokens / prompt_tokens}, for requests with a non-zero prompt).
 *
 * <p>Every row with a non-zero {@code prompt_tokens} is assumed to have reported cached tokens.
 * When those rows share one prompt size {@code P} ({@code k} rows), the total
 * {@code round(avg * k * P)} is split evenly (earlier rows get the remainder) and kept when the
 * recomputed mean equals the file's average exactly. Otherwise every such row gets
 * {@code exact_cached_fraction = avg} (the last one nudged by a few ulps so the mean is exact) and
 * {@code cached_tokens = round(avg * prompt_tokens)} for information.
 */
final class CachedTokens {
    private final Long[] cached;
    private final Double[] fractions;

    private CachedTokens(Long[] cached, Double[] fractions) {
        this.cached = cached;
        this.fractions = fractions;
    }

    Long cachedTokens(int rowPos) {
        return cached[rowPos];
    }

    Double exactFraction(int rowPos) {
        return fractions[rowPos];
    }

    /**
     * @param rows the rows sorted by request index
     * @param avg the file's prefix_cache_hit_avg, or null
     * @return per-row values
     */
    static CachedTokens reconstruct(List<JsonNode> rows, Double avg) {
        int n = rows.size();
        Long[] cached = new Long[n];
        Double[] fractions = new Double[n];
        if (avg == null) {
            return new CachedTokens(cached, fractions);
        }
        List<Integer> pos = new ArrayList<>();
        long commonPrompt = -1;
        boolean same = true;
        for (int i = 0; i < n; i++) {
            JsonNode p = rows.get(i).get("prompt_tokens");
            if (p != null && p.isIntegralNumber() && p.longValue() != 0) {
                pos.add(i);
                if (commonPrompt < 0) {
                    commonPrompt = p.longValue();
                } else if (commonPrompt != p.longValue()) {
                    same = false;
                }
            }
        }
        int k = pos.size();
        if (k == 0) {
            return new CachedTokens(cached, fractions);
        }
        if (same) {
            long total = Math.round(avg * k * commonPrompt);
            if (total >= 0 && total <= k * commonPrompt) {
                long q = total / k;
                long r = total % k;
                double sum = 0;
                for (int j = 0; j < k; j++) {
                    long c = q + (j < r ? 1 : 0);
                    cached[pos.get(j)] = c;
                    sum += (double) c / (double) commonPrompt;
                }
                if (sum / k == avg) {
                    return new CachedTokens(cached, fractions);
                }
            }
        }
        for (int j = 0; j < k; j++) {
            long prompt = rows.get(pos.get(j)).get("prompt_tokens").longValue();
            cached[pos.get(j)] = Math.round(avg * prompt);
            fractions[pos.get(j)] = avg;
        }
        double last = avg;
        for (int step = 0; step < 64 && mean(fractions, pos, last) != avg; step++) {
            last = mean(fractions, pos, last) > avg ? Math.nextDown(last) : Math.nextUp(last);
        }
        if (mean(fractions, pos, last) == avg) {
            fractions[pos.get(k - 1)] = last;
        }
        return new CachedTokens(cached, fractions);
    }

    private static double mean(Double[] fractions, List<Integer> pos, double last) {
        double sum = 0;
        for (int j = 0; j < pos.size(); j++) {
            sum += j == pos.size() - 1 ? last : fractions[pos.get(j)];
        }
        return sum / pos.size();
    }
}
