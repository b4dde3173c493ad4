package io.capstream.loadgen.sim;

import static io.capstream.loadgen.sim.SimFrames.array;
import static io.capstream.loadgen.sim.SimFrames.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sim's mid-stream faults (malformed frames, cuts) on the Responses and Messages streams. */
class SimApiFaultsTest {
    @RegisterExtension
    final SimFixture fixture = new SimFixture(2000);

    private static JsonObject responses() {
        return new JsonObject().put("model", "m").put("input", "hi").put("max_output_tokens", 8).put("stream", true);
    }

    private static JsonObject messages() {
        return new JsonObject().put("model", "m").put("messages", array(user("hi"))).put("max_tokens", 8)
                .put("stream", true);
    }

    @Test
    void aMalformedFrameIsOneUnparsableDataLineInAnOtherwiseCompleteStream() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().malformedRate(1));
        for (String[] api : new String[][] {{"/v1/responses", "response.completed"}, {"/v1/messages", "message_stop"}}) {
            SimFrames.Answer a = fixture.post(sim, api[0],
                    api[0].endsWith("responses") ? responses() : messages());
            List<SimFrames.Frame> frames = a.frames();
            long bad = frames.stream().filter(f -> {
                try {
                    f.json();
                    return false;
                } catch (DecodeException e) {
                    return true;
                }
            }).count();
            assertThat(bad).as("malformed frames of %s: %s", api[0], a.body()).isEqualTo(1);
            assertThat(frames.get(frames.size() - 1).event()).as("%s still ends", api[0]).isEqualTo(api[1]);
        }
        assertThat(sim.stats().malformed()).isEqualTo(2);
    }

    @Test
    void aCutClosesTheConnectionBeforeTheEnd() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder().cutRate(1));
        assertThatThrownBy(() -> fixture.post(sim, "/v1/responses", responses()))
                .as("a cut Responses stream").isInstanceOf(io.vertx.core.http.HttpClosedException.class);
        assertThatThrownBy(() -> fixture.post(sim, "/v1/messages", messages()))
                .as("a cut Messages stream").isInstanceOf(io.vertx.core.http.HttpClosedException.class);
        assertThat(sim.stats().cuts()).isEqualTo(2);
        assertThat(sim.stats().completed()).isZero();
    }
}
