package io.capstream.loadgen.workload;

import java.util.List;

/**
 * The requests of a {@code --dataset} file, read by {@link DatasetReader}: in a single-turn dataset request i sends
 * entry {@code i mod N} (N = {@link #size()}), in file order; in a multi-turn dataset ({@link #multiTurn()}) each
 * entry is a conversation (see {@code io.capstream.loadgen.conversation.DatasetConversations}). Immutable.
 *
 * @param name      the file's name (no directory), recorded in the report
 * @param sha256    SHA-256 of the file's bytes, lower-case hex, recorded in the report
 * @param format    {@code jsonl} or {@code sharegpt}
 * @param tokenizer what counted the tokens ({@link TokenCounter#name()})
 * @param entries   the usable entries, at least one, in file order (at most the reader's limit)
 */
public record Dataset(String name, String sha256, String format, String tokenizer, List<DatasetEntry> entries) {

    /** Copies the entries. */
    public Dataset {
        entries = List.copyOf(entries);
    }

    /** @return N, the usable entries held */
    public int size() {
        return entries.size();
    }

    /**
     * @param request a request index (&gt;= 0; warm-up requests have indices after the plan's)
     * @return the entry it sends: {@code entries[request mod N]}
     */
    public DatasetEntry entry(int request) {
        return entries.get(Math.floorMod(request, entries.size()));
    }

    /**
     * @return true when the file has a conversation of more than one turn (a ShareGPT conversation with several
     *         human turns, or a JSONL {@code turns} array of more than one): then every held entry has its
     *         {@link DatasetEntry#turns()} and the run sends whole conversations; false for a single-turn dataset,
     *         whose entries have none and which runs exactly as before issue 29
     */
    public boolean multiTurn() {
        return entries.get(0).turns().size() > 0;
    }

    /** @return the most turns of a held entry: 1 for a single-turn dataset */
    public int maxTurns() {
        return entries.stream().mapToInt(e -> Math.max(1, e.turns().size())).max().orElse(1);
    }

    /**
     * The dataset as a single-turn run sends it: each entry's first request alone (a ShareGPT conversation's first
     * human turn with the gpt turn after it, as before issue 29), for a run that replays only first turns.
     *
     * @return this when single-turn; else a copy whose entries have no turns ({@link #multiTurn()} false)
     */
    public Dataset firstTurns() {
        if (!multiTurn()) {
            return this;
        }
        return new Dataset(name, sha256, format, tokenizer, entries.stream()
                .map(e -> new DatasetEntry(e.messagesJson(), e.promptTokens(), e.outputTokens())).toList());
    }
}
