package io.capstream.loadgen.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Responses store keeps the most recently used conversations within its entry and character bounds. */
class ResponseStoreTest {
    @Test
    void evictsTheLeastRecentlyUsedBeyondTheEntryBound() {
        ResponseStore store = new ResponseStore(2, 1_000);
        store.put("a", "A");
        store.put("b", "B");
        assertThat(store.get("a")).as("a read: now the most recently used").isEqualTo("A");
        store.put("c", "C");
        assertThat(store.get("b")).as("b, the least recently used, evicted").isNull();
        assertThat(store.get("a")).isEqualTo("A");
        assertThat(store.get("c")).isEqualTo("C");
        assertThat(store.size()).isEqualTo(2);
    }

    @Test
    void evictsBeyondTheCharacterBoundAndSkipsWhatCannotFit() {
        ResponseStore store = new ResponseStore(100, 10);
        store.put("a", "x".repeat(6));
        store.put("b", "y".repeat(4));
        store.put("c", "z".repeat(3));
        assertThat(store.get("a")).as("6 + 4 + 3 chars > 10: the oldest goes").isNull();
        assertThat(store.get("b")).isEqualTo("yyyy");
        store.put("huge", "h".repeat(11));
        assertThat(store.get("huge")).as("longer than the bound alone: not kept").isNull();
        assertThat(store.get("c")).as("and nothing else evicted for it").isEqualTo("zzz");
    }
}
