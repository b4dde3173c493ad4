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
 *                 run's shares), {@link #REFUSED} (a worker did not run its share) or {@link #TRIPPED} (a worker's
 *                 share tripped a stop rule); not null
 * @param runId    the run id; not null
 * @param share    the share a refusal or a trip is about; null for the other types
 * @param workerId the refusing or tripping worker's id; null for the other types
 * @param reason   why (a refusal's problems, a stop's cause, what was true when a rule tripped); null when none
 * @param rule     the stop rule (issue 30): of a {@link #TRIPPED}, the rule that tripped; of a {@link #STOP}, the
 *                 rule that made the coordinator stop the run (its workers then record the rule
 *                 {@code coordinator}, not an interruption); null otherwise
 */
public record ControlMessage(String type, String runId, Integer share, String workerId, String reason, String rule) {
    /** A coordinator created the run's plan topic. */
    public static final String PLAN = "plan";
    /** The coordinator asks every worker to stop the run's shares (they end as interrupted). */
    public static final String STOP = "stop";
    /** A worker did not run its share (nothing of it was sent). */
    public static final String REFUSED = "refused";
    /** A worker's share tripped a stop rule (issue 30): the coordinator stops every worker. */
    public static final String TRIPPED = "tripped";

    /** A message without a stop rule (the types before issue 30). */
    public ControlMessage(String type, String runId, Integer share, String workerId, String reason) {
        this(type, runId, share, workerId, reason, null);
    }

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
     * @param runId  the run id; not null
     * @param rule   the stop rule one of its workers tripped; not null
     * @param reason which worker, and what was true; not null
     * @return a stop of the run because of a stop rule (its workers record the rule {@code coordinator})
     */
    public static ControlMessage stopForRule(String runId, String rule, String reason) {
        return new ControlMessage(STOP, runId, null, null, reason, rule);
    }

    /**
     * @param runId    the run id; not null
     * @param share    the share that tripped
     * @param workerId the worker; not null
     * @param rule     the rule that tripped; not null
     * @param detail   what was true; not null
     * @return a worker's report of a tripped stop rule
     */
    public static ControlMessage tripped(String runId, int share, String workerId, String rule, String detail) {
        return new ControlMessage(TRIPPED, runId, share, workerId, detail, rule);
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
        if (rule != null) {
            n.put("rule", rule);
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
                    n.path("reason").isTextual() ? n.get("reason").asText() : null,
                    n.path("rule").isTextual() ? n.get("rule").asText() : null);
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
