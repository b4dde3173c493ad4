package io.capstream.loadgen.images;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.run.PayloadShape;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Synthetic images: seeded, of the asked size and format, not compressible to nothing, shared per slot. */
class SyntheticImagesTest {

    private static BufferedImage decode(byte[] encoded) throws Exception {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(encoded));
        assertThat(img).as("ImageIO decodes the %d bytes", encoded.length).isNotNull();
        return img;
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOthers() {
        ImageSize size = new ImageSize(96, 64);
        byte[] a = SyntheticImage.encode(size, 42, "png");
        byte[] b = SyntheticImage.encode(size, 42, "png");
        byte[] c = SyntheticImage.encode(size, 43, "png");
        assertThat(b).as("same seed").isEqualTo(a);
        assertThat(c).as("another seed").isNotEqualTo(a);
    }

    @Test
    void pngAndJpegDecodeBackAtTheirSize() throws Exception {
        ImageSize size = new ImageSize(130, 70);
        byte[] png = SyntheticImage.encode(size, 1, "png");
        byte[] jpeg = SyntheticImage.encode(size, 1, "jpeg");
        assertThat(png).as("PNG signature").startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        assertThat(jpeg).as("JPEG SOI marker").startsWith((byte) 0xFF, (byte) 0xD8);
        for (byte[] encoded : List.of(png, jpeg)) {
            BufferedImage img = decode(encoded);
            assertThat(img.getWidth() + "x" + img.getHeight()).as("decoded size").isEqualTo("130x70");
        }
    }

    @Test
    void aPictureDoesNotCompressToNothing() {
        byte[] png = SyntheticImage.encode(new ImageSize(256, 256), 5, "png");
        byte[] jpeg = SyntheticImage.encode(new ImageSize(256, 256), 5, "jpeg");
        // 256x256 RGB is 196,608 bytes raw: the noise keeps the PNG near half of it, the JPEG several kB
        assertThat(png.length).as("PNG bytes of 256x256").isGreaterThan(60_000);
        assertThat(jpeg.length).as("JPEG bytes of 256x256").isGreaterThan(3_000);
    }

    @Test
    void thePoolCyclesTheSizesAndGivesEachMessageDistinctPictures() throws Exception {
        PayloadShape p = new PayloadShape(3, List.of(new ImageSize(40, 30), new ImageSize(20, 50)), "jpeg", null);
        ImagePool pool = ImagePool.build(p.images(), p.effectiveImageSizes(), p.effectiveImageFormat(), 7, 10);
        List<EncodedImage> first = pool.forMessage(0);
        List<EncodedImage> second = pool.forMessage(1);
        assertThat(first).extracting(i -> i.width() + "x" + i.height()).as("slots 0,1,2")
                .containsExactly("40x30", "20x50", "40x30");
        assertThat(second).extracting(i -> i.width() + "x" + i.height()).as("slots 3,4,5")
                .containsExactly("20x50", "40x30", "20x50");
        assertThat(first.get(0).base64()).as("a message's two 40x30 images differ")
                .isNotEqualTo(first.get(2).base64());
        assertThat(first.get(0).mediaType()).isEqualTo("image/jpeg");
        EncodedImage img = first.get(1);
        BufferedImage decoded = decode(Base64.getDecoder().decode(img.base64()));
        assertThat(decoded.getWidth() + "x" + decoded.getHeight()).as("slot 1 decoded").isEqualTo("20x50");
        assertThat(img.encodedBytes()).as("encoded bytes = the decoded base64's length")
                .isEqualTo(Base64.getDecoder().decode(img.base64()).length);
        assertThat(img.dataUrl()).startsWith("data:image/jpeg;base64,/9j/");
        // 10 requests x 3 images over 2 sizes: 15 slots per size, each its own picture
        assertThat(pool.distinct()).as("pictures held").isEqualTo(30);
        Set<String> seen = new HashSet<>();
        for (int r = 0; r < 10; r++) {
            pool.forMessage(r).forEach(i -> seen.add(new String(i.base64())));
        }
        assertThat(seen).as("distinct pictures of the run's 30 images").hasSize(30);
        ImagePool again = ImagePool.build(p.images(), p.effectiveImageSizes(), p.effectiveImageFormat(), 7, 10);
        assertThat(again.forMessage(4).get(1).base64()).as("rebuilt with the same seed")
                .isEqualTo(pool.forMessage(4).get(1).base64());
        ImagePool other = ImagePool.build(p.images(), p.effectiveImageSizes(), p.effectiveImageFormat(), 8, 10);
        assertThat(other.forMessage(4).get(1).base64()).as("another run seed")
                .isNotEqualTo(pool.forMessage(4).get(1).base64());
    }

    @Test
    void thePoolRepeatsPicturesPastItsCapButNotWithinAMessage() {
        PayloadShape p = new PayloadShape(2, List.of(new ImageSize(16, 16)), "png", null);
        ImagePool pool = ImagePool.build(p.images(), p.effectiveImageSizes(), p.effectiveImageFormat(), 1, 1000);
        assertThat(pool.distinct()).as("capped pictures for 2,000 slots").isEqualTo(ImagePool.MAX_PICTURES_PER_SIZE);
        assertThat(pool.slot(ImagePool.MAX_PICTURES_PER_SIZE).base64()).as("slot K is slot 0 again")
                .isEqualTo(pool.slot(0).base64());
        List<EncodedImage> m = pool.forMessage(123);
        assertThat(m.get(0).base64()).as("a message's images").isNotEqualTo(m.get(1).base64());
    }

    @Test
    void datasetImagePartsAreCountedWithBytesAndPixels() {
        EncodedImage img = EncodedImage.of("png", SyntheticImage.encode(new ImageSize(30, 20), 3, "png"), 30, 20);
        String messages = "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"what is it?\"},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + img.dataUrl() + "\"}},"
                + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + img.dataUrl() + "\"}}]}]";
        ImageStats s = DatasetImages.count(messages);
        assertThat(s).as("two data URLs of a 30x20 PNG")
                .isEqualTo(new ImageStats(2, 2L * img.encodedBytes(), 2L * 600));
        ImageStats remote = DatasetImages.count("[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                + "\"image_url\":{\"url\":\"https://example.com/cat.png\"}}]}]");
        assertThat(remote).as("a remote URL: counted, size unknown").isEqualTo(new ImageStats(1, 0, -1));
        assertThat(DatasetImages.count("[{\"role\":\"user\",\"content\":\"an image of text\"}]"))
                .as("text only").isEqualTo(ImageStats.NONE);
    }
}
