package io.capstream.loadgen.conversation;

import io.capstream.loadgen.images.EncodedImage;
import java.util.List;

/**
 * One message of a conversation's input that the client wrote (not the model): a user message, or a system message
 * at the start of a dataset conversation (issue 29). The body builders write it in each API's form.
 *
 * @param role    {@code user} or {@code system}; not null
 * @param content the text; not null
 * @param images  the synthetic images after the text (issue 30: a user message with {@code --images}); empty for
 *                none, never null
 */
public record InputMessage(String role, String content, List<EncodedImage> images) {
    /** Copies the images; null is none. */
    public InputMessage {
        images = images == null ? List.of() : List.copyOf(images);
    }

    /**
     * A message without images.
     *
     * @param role    {@code user} or {@code system}; not null
     * @param content the text; not null
     */
    public InputMessage(String role, String content) {
        this(role, content, List.of());
    }

    /**
     * @param content the text; not null
     * @return a user message
     */
    public static InputMessage user(String content) {
        return new InputMessage("user", content);
    }

    /**
     * @param attached images to carry after the text; not null
     * @return this message with them (issue 30)
     */
    public InputMessage withImages(List<EncodedImage> attached) {
        return new InputMessage(role, content, attached);
    }
}
