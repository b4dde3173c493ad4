package io.capstream.aggregator.slo;

/** An SLO string that cannot be parsed; the message names the input and what is expected. */
public final class SloParseException extends IllegalArgumentException {
    /**
     * @param message what is wrong and what is expected
     */
    public SloParseException(String message) {
        super(message);
    }
}
