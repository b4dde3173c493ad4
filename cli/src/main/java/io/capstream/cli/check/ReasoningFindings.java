package io.capstream.cli.check;

import java.util.List;

/**
 * Reasoning: the delta field it arrives in ({@code reasoning_field}: {@code reasoning_content}, {@code reasoning}
 * or none), by default or with {@code enable_thinking: true}, and whether {@code enable_thinking: false} (capstream's
 * {@code --no-thinking}) turns it off ({@code thinking_off}).
 */
final class ReasoningFindings {
    private ReasoningFindings() {
    }

    /** @param o the exchanges @return the findings, in order */
    static List<Finding> of(Observations o) {
        StreamShape def = new StreamShape(o.basic());
        StreamShape on = new StreamShape(o.thinkingOn());
        StreamShape off = new StreamShape(o.thinkingOff());
        String field = def.reasoningField() != null ? def.reasoningField() : on.reasoningField();
        Finding where;
        if (field != null) {
            where = Finding.of("reasoning_field", Finding.Verdict.INFO, field, "reasoning deltas in delta." + field
                    + (def.reasoningField() != null ? " by default" : " with enable_thinking true (not by default)")
                    + "; capstream counts them as output (TTFO) and reports content TTFT apart");
        } else {
            where = Finding.of("reasoning_field", Finding.Verdict.INFO, "none",
                    "no reasoning delta by default" + (o.thinkingOn().ok() ? " or with enable_thinking true" : ""));
        }
        Finding offFinding;
        if (o.thinkingOff().status() == 0 && String.valueOf(o.thinkingOff().failure()).startsWith("not sent")) {
            offFinding = Finding.of("thinking_off", Finding.Verdict.UNKNOWN, "n/a", "enable_thinking false: "
                    + o.thinkingOff().failure());
        } else if (!o.thinkingOff().ok()) {
            offFinding = Finding.of("thinking_off", Finding.Verdict.UNKNOWN, "n/a",
                    "enable_thinking false: " + Answers.outcome(o.thinkingOff()));
        } else if (def.reasoningField() == null) {
            offFinding = Finding.of("thinking_off", Finding.Verdict.INFO, "not needed",
                    "no reasoning by default; enable_thinking false " + (off.reasoningField() == null
                            ? "also gives none" : "still gives reasoning"));
        } else if (off.reasoningField() == null) {
            offFinding = Finding.of("thinking_off", Finding.Verdict.OK, "yes", "chat_template_kwargs.enable_thinking"
                    + " false (--no-thinking) turns the default reasoning off");
        } else {
            offFinding = Finding.of("thinking_off", Finding.Verdict.WARN, "no", "reasoning still arrives with"
                    + " enable_thinking false: --no-thinking has no effect here (try --reasoning-effort none)");
        }
        return List.of(where, offFinding);
    }
}
