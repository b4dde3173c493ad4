package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

/**
 * The exchanges of one check, as sent by {@link CheckProbe}; the finding groups read them. An exchange that was not
 * sent (chat-only, or the time bound ran out) is {@link ProbeExchange#failed} with a reason.
 *
 * @param basic       streamed, {@code include_usage}, no thinking control
 * @param repeat      the same body again (prefix cache)
 * @param unasked     streamed without {@code stream_options}
 * @param thinkingOn  with {@code enable_thinking: true}
 * @param thinkingOff with {@code enable_thinking: false}
 * @param oversize    a prompt longer than the window
 * @param models      {@code GET <base>/models}
 * @param metrics     {@code GET <root>/metrics}
 */
public record Observations(ProbeExchange basic, ProbeExchange repeat, ProbeExchange unasked, ProbeExchange thinkingOn,
                           ProbeExchange thinkingOff, ProbeExchange oversize, ProbeExchange models, ProbeExchange metrics) {
}
