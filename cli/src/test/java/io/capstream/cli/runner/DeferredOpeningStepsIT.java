package io.capstream.cli.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.stack.LocalStack;
import io.capstream.cli.stack.StackConfig;
import io.capstream.loadgen.emit.DeferredEventSink;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fresh-user pass 4, item 2: the progress line of a {@code run} whose embedded Kafka starts after its last request
 * said "starting the embedded Kafka broker, N events held" even after "embedded Kafka at HOST:PORT" had been printed,
 * while the topics, the report aggregator and the producer were being set up. The opening now names each step
 * ({@link DeliverySession#kafkaStartStep()}, which the progress line shows): here each line the stack prints is
 * recorded with the step the progress line would name at that moment. The embedded broker and the in-process
 * aggregator really start; nothing depends on timing (the steps are set on the opening thread before each part).
 */
class DeferredOpeningStepsIT {

    @Test
    @Timeout(240)
    void afterTheBrokersAddressTheLineNamesTheStepBeingDone() throws Exception {
        AtomicReference<DeliverySession> current = new AtomicReference<>();
        List<String> printed = new CopyOnWriteArrayList<>();
        PrintStream log = new PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void println(String line) {
                DeliverySession s = current.get();
                printed.add(line + " | step: " + (s == null ? "-" : s.kafkaStartStep()));
            }
        };
        StackConfig cfg = StackConfig.of(new KafkaClientProperties(null, Map.of()), "mock://opening-steps", null)
                .withAggregator(true, null).withKafkaAtEnd(true);
        try (LocalStack stack = LocalStack.start(cfg, log);
             DeliverySession session = DeliverySession.open(stack, EventDelivery.AUTO, false, log)) {
            current.set(session);
            DeferredEventSink sink = (DeferredEventSink) session.newRun().sink();
            assertThat(session.kafkaStartStep()).as("before the opening").isEqualTo(LocalStack.STEP_BROKER);
            sink.send(RunEvent.newBuilder().setRunId("r").setEventId("e1").setWorkerId("w").setEmittedAtMs(0)
                    .setPayload(Heartbeat.newBuilder().build()).build());
            long undelivered = sink.flush().get(180, TimeUnit.SECONDS);
            assertThat(undelivered).as("undelivered events; the stack printed %s", printed).isZero();
            assertThat(sink.opening()).as("opening once flushed").isFalse();
            assertThat(session.kafkaStartStep()).as("the last step").isEqualTo(DeliverySession.STEP_PRODUCER);
            sink.close(Duration.ofSeconds(30));
        }
        assertThat(printed).as("the stack's lines, each with the step named while it was printed")
                .anySatisfy(l -> assertThat(l).startsWith("capstream: embedded Kafka at 127.0.0.1:")
                        .endsWith(" | step: " + LocalStack.STEP_TOPICS))
                .anySatisfy(l -> assertThat(l).startsWith("capstream: report aggregator running")
                        .endsWith(" | step: " + LocalStack.STEP_AGGREGATOR))
                .noneSatisfy(l -> assertThat(l).contains("embedded Kafka at")
                        .endsWith(" | step: " + LocalStack.STEP_BROKER));
    }
}
