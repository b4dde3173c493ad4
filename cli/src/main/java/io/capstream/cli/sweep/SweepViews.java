package io.capstream.cli.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.html.RunPage;
import io.capstream.aggregator.html.SweepPage;
import io.capstream.cli.report.RequestCsv;
import io.capstream.cli.report.RunViews;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The visual outputs of a sweep ({@code sweep --html/--csv}, {@code replay --sweep-id ... --html/--csv}):
 *
 * <ul>
 *   <li>{@code --html FILE}: the sweep's page ({@link SweepPage}, from its {@code sweep.json}) at FILE, and
 *       each step's run page ({@link RunPage}) next to the step's report file ({@code <run id>.html} beside
 *       {@code <run id>.json}), linked from the sweep page by their path relative to FILE;</li>
 *   <li>{@code --csv FILE}: one CSV of the requests of every step ({@link RequestCsv#render(List)}: leading
 *       {@code run_id} and {@code step} columns, then the columns of a run's CSV), steps in order.</li>
 * </ul>
 */
public final class SweepViews {
    /**
     * One step with its report.
     *
     * @param runId      the step's run id; not null
     * @param step       the step number (1-based)
     * @param reportFile where the step's report was written; not null
     * @param artifact   the step's report artifact; not null
     */
    public record Step(String runId, int step, Path reportFile, JsonNode artifact) {
        /** @return the step's run page, {@code <report file name without .json>.html} beside its report */
        public Path page() {
            String name = reportFile.getFileName().toString();
            String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
            return reportFile.resolveSibling(base + ".html");
        }
    }

    private SweepViews() {
    }

    /**
     * @param sweepJson the sweep's {@code sweep.json} tree; not null
     * @param steps     the steps with reports, in step order; not null
     * @param html      the sweep page's file, or null for none (then no step page is written either)
     * @param csv       the CSV file, or null for none
     * @return the lines to print: {@code html: PATH} (with the step pages' count), {@code csv: PATH}
     * @throws IOException when a file cannot be written
     */
    public static List<String> write(JsonNode sweepJson, List<Step> steps, Path html, Path csv) throws IOException {
        List<String> lines = new ArrayList<>();
        if (html != null) {
            Map<String, String> links = new LinkedHashMap<>();
            Path from = html.toAbsolutePath().normalize().getParent();
            for (Step s : steps) {
                RunViews.writeFile(s.page(), RunPage.render(s.artifact()));
                links.put(s.runId(), link(from, s.page()));
            }
            RunViews.writeFile(html, render(sweepJson, links::get));
            lines.add("html: " + html + (steps.isEmpty() ? "" : " (and " + steps.size() + " step page(s) beside"
                    + " the step reports)"));
        }
        if (csv != null) {
            List<RequestCsv.Run> runs = steps.stream()
                    .map(s -> new RequestCsv.Run(s.runId(), s.step(), s.artifact())).toList();
            RunViews.writeFile(csv, RequestCsv.render(runs));
            lines.add("csv: " + csv);
        }
        return lines;
    }

    /**
     * The sweep page with its step pages linked ({@link SweepPage#render(JsonNode, Function)}).
     *
     * @param sweepJson the sweep's JSON tree
     * @param runLink   run id to the link of its page (relative to the sweep page), or null when it has none
     * @return the page
     */
    static String render(JsonNode sweepJson, Function<String, String> runLink) {
        return SweepPage.render(sweepJson, runLink);
    }

    /** @return {@code to} relative to the directory {@code from}, with {@code /} separators (a URL path) */
    static String link(Path from, Path to) {
        Path rel = from.relativize(to.toAbsolutePath().normalize());
        List<String> parts = new ArrayList<>();
        rel.forEach(p -> parts.add(java.net.URLEncoder.encode(p.toString(), java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20")));
        return String.join("/", parts);
    }
}
