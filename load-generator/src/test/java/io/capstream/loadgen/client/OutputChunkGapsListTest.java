package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event's gap list (issue 33 item 4: built by a loop, no longer by a boxed stream) is the same list. */
class OutputChunkGapsListTest {
    @Test
    void theListHoldsTheKeptGapsInOrderAndCannotBeChanged() {
        int[] gaps = {10_000, 9_998, 0, 127, 128, -1, Integer.MAX_VALUE, 42};
        for (int count = 0; count <= gaps.length; count++) {
            OutputChunkGaps g = OutputChunkGaps.of(gaps, count, 3);
            List<Integer> streamed = Arrays.stream(gaps, 0, count).boxed().toList();
            List<Integer> list = g.toList();
            assertThat(list).as("gaps of %d", count).isEqualTo(streamed).containsExactlyElementsOf(streamed);
            assertThat(list.hashCode()).as("hash of %d", count).isEqualTo(streamed.hashCode());
            assertThatThrownBy(() -> list.set(0, 1)).as("set on the list of %d", count)
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> list.add(1)).as("add on the list of %d", count)
                    .isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(OutputChunkGaps.NONE.toList()).as("no gaps").isEmpty();
    }
}
