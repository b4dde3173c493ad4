package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.images.ImageSize;
import java.util.List;
import org.junit.jupiter.api.Test;

class PayloadShapeTest {
    /**
     * A fresh user's {@code --images 16 --image-size 8192x8192} passed (sides up to 8192 are allowed), spent 114 s
     * encoding images before T0, then failed every request past Java's 2 GiB buffer bound (failed before: no error).
     */
    @Test
    void requestsWhoseImagesAreTooLargeAreRefusedUpFront() {
        PayloadShape huge = new PayloadShape(16, List.of(new ImageSize(8192, 8192)), null, null);
        assertThat(huge.problems()).as("16 images of 8192x8192").containsExactly("--images 16 of --image-size"
                + " 8192x8192 make requests of up to 3,072 MiB of pixels (16 x 67108864 pixels x 3 bytes), more than"
                + " 512 MiB: lower --images or --image-size");
        PayloadShape cycling = new PayloadShape(11, List.of(new ImageSize(64, 64), new ImageSize(4096, 4096)), null, null);
        assertThat(cycling.problems()).as("the largest of the sizes they cycle through").singleElement().asString()
                .startsWith("--images 11 of --image-size 64x64,4096x4096 make requests of up to 528 MiB");
        assertThat(new PayloadShape(8, List.of(new ImageSize(4096, 4096)), null, null).problems())
                .as("8 images of 4096x4096: 384 MiB").isEmpty();
        assertThat(new PayloadShape(100, List.of(), null, null).problems()).as("100 of the default 512x512")
                .isEmpty();
    }
}
