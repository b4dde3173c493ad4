package io.capstream.loadgen.workload;

import java.util.Locale;

/**
 * The {@code --thinking-mode} values (spec §1, §2.2). {@link #ENABLED} and {@link #DISABLED} send
 * {@code chat_template_kwargs.enable_thinking}; {@link #DEFAULT} and {@link #UNSUPPORTED} send no
 * control and differ only in what is recorded.
 */
public enum ThinkingMode {
    /** Send no thinking control (the server's default). */
    DEFAULT,
    /** Send {@code "chat_template_kwargs":{"enable_thinking":true}}. */
    ENABLED,
    /** Send {@code "chat_template_kwargs":{"enable_thinking":false}}. */
    DISABLED,
    /** Send no control; the model is recorded as not supporting the switch. */
    UNSUPPORTED;

    /** @return the wire/recorded name: default, enabled, disabled or unsupported */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param s a recorded name (case-insensitive)
     * @return the mode
     * @throws IllegalArgumentException for an unknown name
     */
    public static ThinkingMode parse(String s) {
        for (ThinkingMode m : values()) {
            if (m.wireName().equalsIgnoreCase(s.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("thinking-mode must be one of default, enabled, disabled, unsupported; got '" + s + "'");
    }
}
