// Encode time per synthetic image and its size: java -cp cli/target/capstream.jar bench/images/EncodeBench.java [WxH] [N]
// Draws and encodes N pictures of one size with capstream's SyntheticImage (PNG and JPEG), after 3 discarded ones,
// and prints the per-image median and worst draw+encode time and the encoded size.
import io.capstream.loadgen.images.SyntheticImage;
import io.capstream.loadgen.images.ImageSize;
import java.util.Arrays;

public class EncodeBench {
    public static void main(String[] a) {
        String[] wh = (a.length > 0 ? a[0] : "1024x1024").split("x");
        ImageSize size = new ImageSize(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]));
        int n = a.length > 1 ? Integer.parseInt(a[1]) : 8;
        for (String format : new String[] {"png", "jpeg"}) {
            for (int i = 0; i < 3; i++) {
                SyntheticImage.encode(size, -1 - i, format);
            }
            double[] ms = new double[n];
            long bytes = 0;
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                bytes += SyntheticImage.encode(size, i, format).length;
                ms[i] = (System.nanoTime() - t) / 1e6;
            }
            Arrays.sort(ms);
            System.out.printf("%s %s: draw+encode per image median %.0f ms, max %.0f ms; %,d bytes each (base64 %,d)%n",
                    size, format, ms[n / 2], ms[n - 1], bytes / n, (bytes / n + 2) / 3 * 4);
        }
    }
}
