package io.capstream.loadgen.run;

import io.capstream.loadgen.conversation.ConversationBodyWriter;
import io.capstream.loadgen.conversation.ConversationScript;
import io.capstream.loadgen.conversation.DatasetConversations;
import io.capstream.loadgen.conversation.SyntheticConversations;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestPlan;

/**
 * Which conversations a run plays and how their bodies are written (issue 29): the one place a run's
 * {@link ConversationScript} and {@link ConversationBodyWriter} are chosen. Stateless.
 */
final class ConversationScripts {
    private ConversationScripts() {
    }

    /**
     * @param plan the run's plan; not null
     * @return the run's conversations: those of a multi-turn {@code --dataset}, else synthetic ones of
     *         {@code --turns} (with {@code --tools} one turn each unless {@code --turns} says more); null for single
     *         requests (the reference's run)
     */
    static ConversationScript of(RunPlan plan) {
        RunConfig c = plan.config();
        RequestPlan rp = plan.requestPlan();
        if (rp.dataset() != null && rp.dataset().multiTurn()) {
            return DatasetConversations.of(rp.dataset(), plan.requests());
        }
        if (!c.conversation().conversations()) {
            return null;
        }
        String salt = c.request().promptSalt();
        return new SyntheticConversations(plan.requests(), c.conversation().turns(), c.identity().seed(),
                new PromptBuilder(c.request().sharedPrefixTokens(), salt), new PromptBuilder(0, salt),
                i -> rp.promptTokens(plan.contextPlan().planned(i)), i -> rp.maxTokens(i, -1));
    }

    /**
     * @param script the run's conversations; not null
     * @param share  a worker's share (it holds whole conversations: conversation c belongs to share c mod shares), or
     *               null for the whole run
     * @return the requests (turns) of the conversations it sends
     */
    static int requestsOf(ConversationScript script, PlanShare share) {
        int units = share == null ? script.conversations() : share.count(script.conversations());
        int sum = 0;
        for (int u = 0; u < units; u++) {
            sum += script.turns(share == null ? u : share.globalIndex(u));
        }
        return sum;
    }

    /**
     * @param plan the run's plan; not null
     * @return the body writer of the run's endpoint, model, thinking controls, extra body and tools
     * @throws IllegalStateException until the endpoints' conversation body writers are part of this build
     */
    static ConversationBodyWriter writer(RunPlan plan) {
        throw new IllegalStateException("conversation bodies for --endpoint " + plan.config().target().endpoint().label()
                + " are not available in this build");
    }
}
