package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.text.SecretMask;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class GuardedListenerTest {
    @Test
    void aListenersBugNeverReachesTheRunAndNoticesAreMasked() {
        List<String> seen = new CopyOnWriteArrayList<>();
        RunListener buggy = new RunListener() {
            @Override
            public void onNotice(String line) {
                seen.add(line);
                throw new IllegalStateException("bug");
            }

            @Override
            public void onProgress(RunProgress progress) {
                throw new IllegalStateException("bug");
            }

            @Override
            public void onEvent(RunEvent event) {
                throw new IllegalStateException("bug");
            }

            @Override
            public void onAwaitingDelivery(int requestsEnded) {
                throw new IllegalStateException("bug");
            }

            @Override
            public void onFinished(RunOutcome outcome) {
                throw new IllegalStateException("bug");
            }
        };
        GuardedListener g = new GuardedListener(buggy, SecretMask.of(List.of("sk-secret-123")));
        assertThatCode(() -> {
            g.notice("warm-up failed: 401 for key sk-secret-123");
            g.progress(new RunProgress(1, 2, 0, 1, null, 5));
            g.event(RunEvent.newBuilder().setRunId("r").setEventId("e").setWorkerId("w").setEmittedAtMs(0)
                    .setPayload(Heartbeat.newBuilder().build()).build());
            g.awaitingDelivery(2);
            g.finished(null);
        }).as("a listener that throws everywhere").doesNotThrowAnyException();
        assertThat(seen).as("the notice as the listener saw it").singleElement().asString()
                .doesNotContain("sk-secret-123").contains("warm-up failed: 401 for key");
        assertThat(new GuardedListener(null, SecretMask.NONE).raw()).as("no listener").isSameAs(RunListener.NONE);
    }
}
