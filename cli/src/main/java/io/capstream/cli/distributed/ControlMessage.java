package io.capstream.cli.distributed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.charset.StandardCharsets;

/**
 * A message between a distributed run's coordinator and its workers on {@link ControlTopic} (key: the run
 * id; value: a small JSON object). Clock probes on the same topic have an empty value and are not messages.
 * Immutable.
 *
 * @param type     {@link #PLAN} (a coordinator created the run's plan topic: its broker timestamp dates the
 *                 plan, see {@link PlanCleanup}), {@link #STOP} (the coordinator asks the workers to stop the
 *                 run's shares) or {@link #REFUSED} (a worker did not run its share); not null
 * @param runId    the run id; not null
 * @param share    the share a refusal is about; null for the other types
 * @param workerId the refusing worker's id; null for the other types
 * @param reason   why (a refusal's problems, a stop's cause); null when none is given
 */
public record ControlMessage(String type, String runId, Integer share, String workerId, String reason) {
    /** A coordinator created the run's plan topic. */
    public static final String PLAN = "plan";
    /** The coordinator asks every worker to stop the run's shares (they end as interrupted). */
    public static final String STOP = "stop";
    /** A worker did not run its share (nothing of it was sent). */
    public static final String REFUSED = "refused";

    /**
     * @param runId the run id; not null
     * @return the message that dates a plan topic
     */
    public static ControlMessage plan(String runId) {
        return new ControlMessage(PLAN, runId, null, null, null);
    }

    /**
     * @param runId  the run id; not null
     * @param reason why, e.g. "interrupted (SIGINT)"; not null
     * @return a stop of the run
     */
    public static ControlMessage stop(String runId, String reason) {
        return new ControlMessage(STOP, runId, null, null, reason);
    }

    /**
     * @param runId    the run id; not null
     * @param share    the share not run
     * @param workerId the worker; not null
     * @param reason   why it was not run; not null
     * @return a refusal
     */
    public static ControlMessage refused(String runId, int share, String workerId, String reason) {
        return new ControlMessage(REFUSED, runId, share, workerId, reason);
    }

    /** @return the record value, UTF-8 JSON */
    public byte[] toBytes() {
        ObjectNode n = ArtifactJson.nodes().objectNode();
        n.put("type", type);
        n.put("run_id", runId);
        if (share != null) {
            n.put("share", share);
        }
        if (workerId != null) {
            n.put("worker_id", workerId);
        }
        if (reason != null) {
            n.put("reason", reason);
        }
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param value a control topic record's value; may be null
     * @return the message, or null for a clock probe (empty value) and anything that is not a message
     */
    public static ControlMessage parse(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            JsonNode n = ArtifactJson.mapper().readTree(value);
            if (n == null || !n.path("type").isTextual() || !n.path("run_id").isTextual()) {
                return null;
            }
            return new ControlMessage(n.get("type").asText(), n.get("run_id").asText(),
                    n.path("share").canConvertToInt() && n.has("share") ? n.get("share").asInt() : null,
                    n.path("worker_id").isTextual() ? n.get("worker_id").asText() : null,
                    n.path("reason").isTextual() ? n.get("reason").asText() : null);
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
