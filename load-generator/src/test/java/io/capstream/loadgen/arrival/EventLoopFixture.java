package io.capstream.loadgen.arrival;

import static org.awaitility.Awaitility.await;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The arrival-driver tests' event loop: a fresh Vert.x with one event-loop context per test,
 * closed after it ({@code @RegisterExtension}), and the tests' one way to wait for a condition.
 */
final class EventLoopFixture implements BeforeEachCallback, AfterEachCallback {
    private Vertx vertx;
    private Context context;

    @Override
    public void beforeEach(ExtensionContext extension) {
        vertx = Vertx.vertx();
        context = ((VertxInternal) vertx).createEventLoopContext();
    }

    @Override
    public void afterEach(ExtensionContext extension) throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** @return the test's event-loop context */
    Context context() {
        return context;
    }

    /**
     * Waits up to 10 s of real time, polling every millisecond, until {@code condition} holds.
     *
     * @param condition what to wait for
     * @throws org.awaitility.core.ConditionTimeoutException when it does not hold within 10 s
     */
    static void awaitUntil(Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(condition);
    }
}
