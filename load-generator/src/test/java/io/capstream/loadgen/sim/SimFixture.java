package io.capstream.loadgen.sim;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The sim tests' shared setup: a fresh {@link Vertx} per test (closed after it, waiting up to 10 s), sims started on
 * it with a 1 ms TTFT base and a fixed stream decode rate, and requests posted to them. Register it as an instance
 * field with {@code @RegisterExtension}.
 */
final class SimFixture implements BeforeEachCallback, AfterEachCallback {
    private final int decodeTokPerS;
    private Vertx vertx;

    /** @param decodeTokPerS the stream decode rate of the sims started, tokens/s */
    SimFixture(int decodeTokPerS) {
        this.decodeTokPerS = decodeTokPerS;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        vertx = Vertx.vertx();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /**
     * Starts a sim with the configuration given plus the fixture's TTFT base and decode rate.
     *
     * @param cfg the configuration (its TTFT base and decode rate are overwritten)
     * @return the started sim (stopped with the test's Vert.x)
     * @throws Exception when it does not start within 10 s
     */
    SimEngine start(SimConfig.Builder cfg) throws Exception {
        return SimEngine.start(vertx, cfg.ttftBaseMs(1).streamDecodeTokPerS(decodeTokPerS).build())
                .await(10, TimeUnit.SECONDS);
    }

    /**
     * Posts a JSON body to a sim and reads the whole answer.
     *
     * @param sim  the sim
     * @param path the request path, e.g. {@code /v1/responses}
     * @param body the request body
     * @return the answer
     * @throws Exception as {@link SimFrames#post}
     */
    SimFrames.Answer post(SimEngine sim, String path, JsonObject body) throws Exception {
        return SimFrames.post(vertx, sim.port(), path, body);
    }
}
