package io.capstream.loadgen.run;

import io.capstream.loadgen.client.HttpTimings;
import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.images.ImageStats;
import io.capstream.loadgen.servermetrics.SeriesInfo;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.schemas.avro.HttpPhases;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeriesInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Parts of the {@link RunEvent}s of a run that need none of {@link EventFactory}'s state: the fields that the
 * request pipeline adds to a request's event once it is built (issue 30: a cancelled request's fields, the HTTP
 * phases of a failure, the images), and the records of HTTP phases and server scraping that {@link EventFactory}
 * builds into its events.
 *
 * <p>The run's secret mask: the {@code with*} methods set only numbers and booleans, so an event that
 * {@link EventFactory} masked stays masked; the records ({@link #httpPhases}, {@link #serverScraping}, whose URL
 * and first error are strings) are built into an event before {@link EventFactory} masks it. Stateless.
 */
final class EventParts {
    private EventParts() {
    }

    /**
     * Marks a request the client cancelled on purpose (issue 30, {@code --cancel-rate}): its RequestFailed gets
     * {@code cancelled} true, when the client closed the stream ({@code cancel_after_ns}) and what had arrived
     * before: first output and content ({@code ttfo_ns}, {@code ttft_ns}, null when none) and
     * {@code completion_tokens} when the server sent usage (the chunks and the {@code Cancelled} error type are
     * the failure's, from {@link EventFactory#failed}).
     *
     * @param ev            the request's RequestFailed event, from {@link EventFactory#failed} with {@code r}'s
     *                      measurements; not null
     * @param r             the measurements; when not {@link RequestResult#cancelled()}, {@code ev} is left alone
     * @param cancelAfterNs the drawn cancel time, ns after t0, or negative when unknown (then null)
     * @return {@code ev}
     */
    static RunEvent withCancel(RunEvent ev, RequestResult r, long cancelAfterNs) {
        if (r.cancelled() && ev.getPayload() instanceof RequestFailed rf) {
            rf.setCancelled(true);
            rf.setCancelAfterNs(cancelAfterNs >= 0 ? cancelAfterNs : null);
            rf.setTtfoNs(r.ttfoNs() >= 0 ? r.ttfoNs() : null);
            rf.setTtftNs(r.ttftNs() >= 0 ? r.ttftNs() : null);
            rf.setCompletionTokens(r.completionTokens() >= 0 ? r.completionTokens() : null);
        }
        return ev;
    }

    /**
     * Sets a failed request's HTTP phases up to the failure (issue 30).
     *
     * @param event  a RequestFailed event (other events are returned as they are)
     * @param phases the phases, or null when not measured
     * @return the event
     */
    static RunEvent withPhases(RunEvent event, HttpTimings phases) {
        if (event.getPayload() instanceof RequestFailed rf) {
            rf.setHttpPhases(httpPhases(phases));
        }
        return event;
    }

    /**
     * Sets a request event's {@code images}, {@code image_bytes} and {@code image_pixels} (issue 30); leaves them null
     * when the request carried no images ({@code image_pixels} also when some image's size was unknown).
     *
     * @param ev     a RequestCompleted or RequestFailed event (others are left alone); not null
     * @param images the request's images; not null
     * @return {@code ev}
     */
    static RunEvent withImages(RunEvent ev, ImageStats images) {
        if (images.images() == 0) {
            return ev;
        }
        Long pixels = images.pixels() < 0 ? null : images.pixels();
        if (ev.getPayload() instanceof RequestCompleted rc) {
            rc.setImages(images.images());
            rc.setImageBytes(images.encodedBytes());
            rc.setImagePixels(pixels);
        } else if (ev.getPayload() instanceof RequestFailed rf) {
            rf.setImages(images.images());
            rf.setImageBytes(images.encodedBytes());
            rf.setImagePixels(pixels);
        }
        return ev;
    }

    /** @return the events' record of the client's phases, or null when not measured */
    static HttpPhases httpPhases(HttpTimings p) {
        return p == null ? null : HttpPhases.newBuilder().setConnectionReused(p.connectionReused())
                .setBlockedNs(p.blockedNs()).setDnsNs(p.dnsNs()).setConnectNs(p.connectNs()).setTlsNs(p.tlsNs())
                .setSentNs(p.sentNs()).setHeadersNs(p.headersNs()).setFirstChunkNs(p.firstChunkNs()).build();
    }

    /**
     * @param r what the scraper of the endpoint's metrics recorded during the run; not null
     * @return the recording's facts that its scrapes (heartbeats) do not carry: URL, period, failures, series (its
     *         strings unmasked: {@link EventFactory} masks the RunFinished that carries it)
     */
    static ServerScraping serverScraping(ServerMetricsRecording r) {
        List<ServerSeriesInfo> series = new ArrayList<>(r.series().size());
        for (SeriesInfo s : r.series()) {
            series.add(new ServerSeriesInfo(s.name(), s.source(), s.kind()));
        }
        return ServerScraping.newBuilder().setUrl(r.url()).setIntervalMs(r.intervalMs())
                .setFailedScrapes(r.failed()).setFirstError(r.firstError()).setSeries(series).build();
    }
}
