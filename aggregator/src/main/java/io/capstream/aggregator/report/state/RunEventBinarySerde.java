package io.capstream.aggregator.report.state;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.AvroBinarySerde;
import io.capstream.schemas.serde.CustomCoderModels;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Plain Avro binary encoding of a {@link RunEvent} for the report topology's internal state store and
 * its changelog ({@link AvroBinarySerde}: same-version data, no registry). The payload records are
 * (de)serialised with their generated custom coders (same encoding, no generic per-field reflection;
 * writer and reader schema are identical here). Bytes written before issue 29 (whose request and RunStarted records
 * had fewer fields), before issue 30, before issue 33 and before RunStarted's {@code http_client} are still read, through
 * the earlier writer schemas kept in {@code run-event-before-issue-29.avsc}, {@code run-event-before-issue-30.avsc},
 * {@code run-event-before-issue-33.avsc} and {@code run-event-before-http-client.avsc}: a changelog of open runs
 * survives the upgrade. Thread-safe.
 */
public final class RunEventBinarySerde extends AvroBinarySerde<RunEvent> {
    /** A serde over the compiled RunEvent schema with the custom coders. */
    public RunEventBinarySerde() {
        super(RunEvent.getClassSchema(), CustomCoderModels.forClass(RunEvent.class), List.of(BEFORE_HTTP_CLIENT, BEFORE_ISSUE_33, BEFORE_ISSUE_30, BEFORE_ISSUE_29));
    }

    /** The RunEvent schema capstream wrote before RunStarted recorded the HTTP client ({@code http_client}, issue 33). */
    private static final Schema BEFORE_HTTP_CLIENT =
            earlierSchema(RunEventBinarySerde.class, "run-event-before-http-client.avsc");

    /** The RunEvent schema capstream wrote before issue 33 added the trace headers and the server's view per request. */
    private static final Schema BEFORE_ISSUE_33 = 
            earlierSchema(RunEventBinarySerde.class, "run-event-before-issue-33.avsc");

    /** The RunEvent schema capstream wrote before issue 30 added load shapes, cancellations, stop rules and phases. */
    private static final Schema BEFORE_ISSUE_30 = 
            earlierSchema(RunEventBinarySerde.class, "run-event-before-issue-30.avsc");

    /** The RunEvent schema capstream wrote before issue 29 added the conversation fields. */
    private static final Schema BEFORE_ISSUE_29 = 
            earlierSchema(RunEventBinarySerde.class, "run-event-before-issue-29.avsc");
}
