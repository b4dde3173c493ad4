package io.capstream.aggregator.change;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of {@link ChangePointDetector} for one series, with its byte form for the state store (version 1).
 * Values are natural logs of the watched percentile. Not thread-safe (one per series and stream task).
 */
public final class CusumState {
    private static final byte VERSION = 1;
    /** The latest windows (reference or not): start ms and log value, oldest first. */
    final List<Point> recent = new ArrayList<>();
    /** Upper CUSUM (rises when values rise), in scale units. */
    double up;
    /** Lower CUSUM (rises when values fall), in scale units. */
    double down;
    /** Start of the first window after the upper CUSUM was last zero; Long.MIN_VALUE when zero now. */
    long upSince = Long.MIN_VALUE;
    /** Start of the first window after the lower CUSUM was last zero; Long.MIN_VALUE when zero now. */
    long downSince = Long.MIN_VALUE;
    /** Start of the latest window seen; Long.MIN_VALUE before the first. */
    long lastStart = Long.MIN_VALUE;

    /**
     * One window of the series.
     *
     * @param startMs  window start, epoch ms
     * @param logValue natural log of the value
     */
    public record Point(long startMs, double logValue) {
    }

    /** @return the byte form */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeDouble(up);
            out.writeDouble(down);
            out.writeLong(upSince);
            out.writeLong(downSince);
            out.writeLong(lastStart);
            write(out, recent);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param bytes the byte form of {@link #toBytes()}; not null
     * @return the state
     * @throws IllegalArgumentException for another version or truncated bytes
     */
    public static CusumState fromBytes(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown change-point state version " + version);
            }
            CusumState s = new CusumState();
            s.up = in.readDouble();
            s.down = in.readDouble();
            s.upSince = in.readLong();
            s.downSince = in.readLong();
            s.lastStart = in.readLong();
            read(in, s.recent);
            return s;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated change-point state", e);
        }
    }

    private static void write(DataOutputStream out, List<Point> points) throws IOException {
        out.writeInt(points.size());
        for (Point p : points) {
            out.writeLong(p.startMs());
            out.writeDouble(p.logValue());
        }
    }

    private static void read(DataInputStream in, List<Point> into) throws IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            into.add(new Point(in.readLong(), in.readDouble()));
        }
    }
}
