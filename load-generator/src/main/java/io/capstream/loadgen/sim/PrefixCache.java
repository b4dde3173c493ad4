package io.capstream.loadgen.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A simple prefix cache: prompts are cut into blocks of {@value #BLOCK_CHARS} characters and each
 * block is identified by a hash chained over every block before it, so a block matches only when
 * the whole prefix up to it matches. LRU-bounded. Not thread-safe: used on the engine's event loop.
 */
final class PrefixCache {
    /** Block size, characters. */
    static final int BLOCK_CHARS = 256;

    private static final long SEED = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private final int maxBlocks;
    private final LinkedHashMap<Long, Boolean> blocks;

    /** @param maxBlocks number of blocks kept (LRU eviction beyond), &gt;= 1 */
    PrefixCache(int maxBlocks) {
        this.maxBlocks = maxBlocks;
        this.blocks = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > PrefixCache.this.maxBlocks;
            }
        };
    }

    /**
     * Looks the prompt up and then records all of its full blocks.
     *
     * @param prompt the prompt text (never null)
     * @return number of leading characters already cached (a multiple of {@value #BLOCK_CHARS})
     */
    int lookupAndInsert(CharSequence prompt) {
        return lookup(prompt).matchedChars();
    }

    /**
     * Looks the prompt up and then records all of its full blocks, like {@link #lookupAndInsert}, and tells where
     * the prompt ended, so that {@link #extend} can record what follows it (the answer) without hashing the prompt
     * again.
     *
     * @param prompt the prompt text (never null)
     * @return the match and the end position
     */
    Lookup lookup(CharSequence prompt) {
        int full = prompt.length() / BLOCK_CHARS;
        long h = SEED;
        int matched = 0;
        boolean matching = true;
        for (int b = 0; b < full; b++) {
            int from = b * BLOCK_CHARS;
            for (int i = from; i < from + BLOCK_CHARS; i++) {
                h = (h ^ prompt.charAt(i)) * PRIME;
            }
            Long key = h;
            if (matching && blocks.get(key) != null) {
                matched += BLOCK_CHARS;
            } else {
                matching = false;
                blocks.put(key, Boolean.TRUE);
            }
        }
        return new Lookup(matched, h, prompt.subSequence(full * BLOCK_CHARS, prompt.length()).toString());
    }

    /**
     * Records the full blocks of the prompt text that continues where {@code at} ended (e.g. the prompt then the
     * answer, which the next turn of a conversation re-sends), so that a later prompt starting with both hits them.
     *
     * @param at   where a {@link #lookup} ended
     * @param more the text that follows (never null)
     */
    void extend(Lookup at, CharSequence more) {
        String text = at.pending() + more;
        long h = at.hash();
        for (int b = 0; b < text.length() / BLOCK_CHARS; b++) {
            int from = b * BLOCK_CHARS;
            for (int i = from; i < from + BLOCK_CHARS; i++) {
                h = (h ^ text.charAt(i)) * PRIME;
            }
            blocks.put(h, Boolean.TRUE);
        }
    }

    /**
     * The result of a {@link #lookup}.
     *
     * @param matchedChars leading characters already cached (a multiple of {@value #BLOCK_CHARS})
     * @param hash         the chained hash after the prompt's last full block
     * @param pending      the prompt's characters after its last full block (fewer than {@value #BLOCK_CHARS})
     */
    record Lookup(int matchedChars, long hash, String pending) {
    }
}
