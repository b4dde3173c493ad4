package io.capstream.loadgen.workload;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A request body written as JSON text with shared byte arrays spliced in (issue 30): a body's own bytes (its JSON
 * generator writes here) and, at the places {@link #splice} marks, the base64 text of {@link EncodedImage}s that many
 * requests share. {@link #toBuffer()} wraps the pieces without copying them, so a request with four 1024x1024 images
 * costs its JSON text on the heap, not ~8 MB of copied base64. Not thread-safe (one body, one thread).
 */
public final class SegmentedBody extends OutputStream {
    private final List<byte[]> pieces = new ArrayList<>();
    private final ByteArrayOutputStream own;
    private long length;

    /** @param initial the expected size of the body's own bytes, bytes (a hint) */
    public SegmentedBody(int initial) {
        own = new ByteArrayOutputStream(Math.max(32, initial));
    }

    @Override
    public void write(int b) {
        own.write(b);
        length++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        own.write(b, off, len);
        length += len;
    }

    /**
     * Appends a shared array after what was written so far (flush the JSON generator first). The array is not
     * copied and must never change.
     *
     * @param shared the bytes; not null
     */
    public void splice(byte[] shared) {
        if (own.size() > 0) {
            pieces.add(own.toByteArray());
            own.reset();
        }
        pieces.add(shared);
        length += shared.length;
    }

    /** @return the body's length, bytes */
    public long length() {
        return length;
    }

    /** @return the body as one Vert.x buffer over the pieces (no copy of the spliced arrays) */
    public Buffer toBuffer() {
        if (pieces.isEmpty()) {
            return Buffer.buffer(own.toByteArray());
        }
        List<byte[]> all = new ArrayList<>(pieces);
        if (own.size() > 0) {
            all.add(own.toByteArray());
        }
        return BufferInternal.buffer(Unpooled.wrappedBuffer(all.toArray(new byte[0][])));
    }

    /** @return the whole body as one array (a copy; for tests and small bodies) */
    public byte[] toByteArray() {
        byte[] out = new byte[(int) length];
        int at = 0;
        for (byte[] p : pieces) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        byte[] tail = own.toByteArray();
        System.arraycopy(tail, 0, out, at, tail.length);
        return out;
    }
}
