package io.capstream.loadgen.workload;

import java.util.List;

/**
 * The requests of a {@code --dataset} file, read by {@link DatasetReader}: request i sends entry {@code i mod N}
 * (N = {@link #size()}), in file order. Immutable.
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
}
