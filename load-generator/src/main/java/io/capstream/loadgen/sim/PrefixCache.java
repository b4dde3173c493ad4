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
        int full = prompt.length() / BLOCK_CHARS;
        long h = 0xcbf29ce484222325L;
        int matched = 0;
        boolean matching = true;
        for (int b = 0; b < full; b++) {
            int from = b * BLOCK_CHARS;
            for (int i = from; i < from + BLOCK_CHARS; i++) {
                h = (h ^ prompt.charAt(i)) * 0x100000001b3L;
            }
            Long key = h;
            if (matching && blocks.get(key) != null) {
                matched += BLOCK_CHARS;
            } else {
                matching = false;
                blocks.put(key, Boolean.TRUE);
            }
        }
        return matched;
    }
}
