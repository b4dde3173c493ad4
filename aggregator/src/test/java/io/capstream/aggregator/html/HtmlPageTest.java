package io.capstream.aggregator.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class HtmlPageTest {
    private static Chart line(String id, String label) {
        return new Chart(id, "t <i>", "x (ms)", "y", Chart.Kind.LINE, new double[] {1, 2.5, 3},
                List.of(new Chart.Series(label, new double[] {1, Double.NaN, 0.25}),
                        new Chart.Series("slo", new double[] {2, 2, 2}, Chart.Series.Style.DASHED)));
    }

    @Test
    void escapesTextEverywhere() {
        String html = HtmlPage.titled("a</title><b>").heading("h & <i>").paragraph("p <script>alert(1)</script>")
                .table(List.of("<th>"), List.of(List.of("<td>"))).render();
        Document doc = Jsoup.parse(html);
        assertEquals("a</title><b>", doc.title());
        assertEquals("a</title><b>", doc.selectFirst("h1").text());
        assertEquals("h & <i>", doc.selectFirst("h2").text());
        assertEquals("p <script>alert(1)</script>", doc.selectFirst("p").text());
        assertEquals("<th>", doc.selectFirst("th").text());
        assertEquals("<td>", doc.selectFirst("td").text());
        assertThat(doc.select("b, i")).isEmpty();
        assertEquals(3, doc.select("script").size(), "the chart JSON, uPlot and the page script only");
        assertEquals("&lt;a href=&quot;x&quot;&gt; &amp; &#39;", HtmlPage.escape("<a href=\"x\"> & '"));
    }

    /** Without an icon link a browser asks the origin for /favicon.ico: a 404 console error on the API's run pages. */
    @Test
    void declaresAnInlineIconSoNoFaviconIsRequested() {
        Document doc = Jsoup.parse(HtmlPage.titled("t").render());
        assertEquals("data:,", doc.selectFirst("link[rel=icon]").attr("href"));
    }

    @Test
    void chartDataIsOneJsonScriptWithScriptEndingTextEscaped() throws Exception {
        String html = HtmlPage.titled("t").chart(line("c-1", "</script><b>x"),
                ChartOptions.NONE.withCaption("every 2nd <request>")).render();
        assertThat(html).doesNotContain("</script><b>x");
        assertTrue(html.contains("\\u003C/script\\u003E\\u003Cb\\u003Ex") || html.contains("\\u003c/script"), html
                .substring(html.indexOf("capstream-charts")).substring(0, 300));
        Document doc = Jsoup.parse(html);
        Element data = doc.getElementById("capstream-charts");
        assertEquals("application/json", data.attr("type"));
        JsonNode charts = ArtifactJson.parse(data.data()).get("charts");
        assertEquals(1, charts.size());
        JsonNode c = charts.get(0);
        assertEquals("c-1", c.get("id").asText());
        assertEquals("LINE", c.get("kind").asText());
        assertEquals("[1,2.5,3]", c.get("x").toString());
        assertEquals("</script><b>x", c.get("series").get(0).get("label").asText());
        assertEquals("[1,null,0.25]", c.get("series").get(0).get("y").toString(), "NaN is a gap");
        assertEquals("DASHED", c.get("series").get(1).get("style").asText());
        assertFalse(c.get("xLog").asBoolean());
        assertTrue(c.get("categories").isNull());
        Element div = doc.selectFirst("div.chart");
        assertEquals("c-1", div.attr("data-chart"));
        assertEquals("0", div.attr("data-points"));
        assertEquals("every 2nd <request>", doc.selectFirst("figcaption").text());
        assertThat(html).as("the page script is inlined").contains("window.capstreamChart = capstreamChart");
        assertThat(html).as("uPlot is inlined").contains(HtmlAssets.uplotJs());
    }

    @Test
    void numbersAreRightAlignedAndLinksMustBeRelative() {
        Document doc = Jsoup.parse(HtmlPage.titled("t").tableCells(List.of("a", "b", "c", "d"), List.of(List.of(
                HtmlPage.Cell.text("1,234.5"), HtmlPage.Cell.text("12.5 ms"), HtmlPage.Cell.text("run-1"),
                HtmlPage.Cell.link("run-1", "run-1.html")))).render());
        List<String> classes = doc.select("td").stream().map(e -> e.className()).toList();
        assertEquals(List.of("num", "num", "", ""), classes);
        assertEquals("run-1.html", doc.selectFirst("td a").attr("href"));
        assertThrows(IllegalArgumentException.class, () -> HtmlPage.titled("t").tableCells(List.of("a"),
                List.of(List.of(HtmlPage.Cell.link("x", "https://example.com/")))));
        assertThrows(IllegalArgumentException.class, () -> HtmlPage.titled("t").tableCells(List.of("a"),
                List.of(List.of(HtmlPage.Cell.link("x", "javascript:alert(1)")))));
    }

    @Test
    void chartIdsAreCheckedAndOptionsWritten() throws Exception {
        HtmlPage page = HtmlPage.titled("t").chart(line("a", "s"), ChartOptions.NONE.withLogX());
        assertThrows(IllegalArgumentException.class, () -> page.chart(line("a", "s")));
        assertThrows(IllegalArgumentException.class, () -> page.chart(line("A b", "s")));
        page.chart(line("b", "s"), ChartOptions.NONE.withCategories(List.of("x", "y", "z")));
        JsonNode charts = ArtifactJson.parse(page.chartData()).get("charts");
        assertTrue(charts.get(0).get("xLog").asBoolean());
        assertEquals("[\"x\",\"y\",\"z\"]", charts.get(1).get("categories").toString());
    }
}
