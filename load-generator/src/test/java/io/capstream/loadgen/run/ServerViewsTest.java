package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.client.ServerReply;
import io.capstream.schemas.avro.ServerView;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 33: the server's TTFT and its source. */
class ServerViewsTest {
    @Test
    void llamaCppsPromptMsComesFirstThenAServerTimingTtftEntry() {
        ServerView llama = ServerViews.of(null, new ServerReply("id", null, 10, 20.5, 3, 4.0, 0,
                Map.of("ttft", 99.0)));
        assertThat(llama.getServerTtftMs()).as("server_ttft_ms from prompt_ms").isEqualTo(20.5);
        assertThat(llama.getServerTtftSource()).as("source").isEqualTo("timings.prompt_ms");
        ServerView timing = ServerViews.of(null, new ServerReply(null, "req-1", null, null, null, null, null,
                Map.of("queue", 1.0, "TTFT", 33.0)));
        assertThat(timing.getServerTtftMs()).as("server_ttft_ms from Server-Timing").isEqualTo(33.0);
        assertThat(timing.getServerTtftSource()).as("source").isEqualTo("server-timing:TTFT");
        assertThat(timing.getResponseRequestId()).as("response_request_id").isEqualTo("req-1");
        ServerView none = ServerViews.of(null, new ServerReply("id", null, null, null, null, null, null,
                Map.of("queue", 1.0)));
        assertThat(none.getServerTtftMs()).as("no TTFT in the response").isNull();
        assertThat(none.getServerTtftSource()).as("no source").isNull();
        assertThat(ServerViews.of(null, ServerReply.NONE)).as("nothing sent or answered").isNull();
    }
}
