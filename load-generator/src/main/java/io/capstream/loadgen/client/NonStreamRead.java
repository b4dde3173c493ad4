package io.capstream.loadgen.client;

/**
 * The reading of a streamed request's response body that is not a stream ({@link StreamingClient}): it is read up to
 * {@link NonStreamBody#MAX_BYTES} (under the request's idle timeout, which keeps running) for the server's message,
 * then the request fails: a non-2xx status as {@code HTTPError} with the elapsed time of the status; a 2xx whose
 * Content-Type is JSON ({@link NonStreamBody#isJson}) as {@code ValueError} "endpoint did not stream" at the end of
 * its body. With keep-alive, the rest of a longer body is read and discarded so that the connection can be reused;
 * without, the connection is closed. The transport reports the body's bytes ({@link #data}), end ({@link #ended}) or
 * failure ({@link #failed}). Used only on the request's event loop.
 */
final class NonStreamRead {
    /** The request the body belongs to. */
    interface Owner {
        /** @return whether the request already ended */
        boolean finished();

        /** @param at when body data arrived ({@link System#nanoTime()}): the idle timeout counts from there */
        void active(long at);

        /**
         * Ends the request, unless it already ended.
         *
         * @param at    its end, {@link System#nanoTime()}
         * @param error its failure
         */
        void finish(long at, RequestError error);

        /** Closes the request's connection, if it has one. */
        void closeConnection();
    }

    private final NonStreamBody body;
    private final long endAt;
    private final Owner owner;
    private final boolean keepAlive;

    /**
     * @param body      the body's failure description
     * @param endAt     the failure's end (nanoTime), or -1 for when the body read ends
     * @param owner     the request
     * @param keepAlive whether the connection is reused (else it is closed once the message is read)
     */
    NonStreamRead(NonStreamBody body, long endAt, Owner owner, boolean keepAlive) {
        this.body = body;
        this.endAt = endAt;
        this.owner = owner;
        this.keepAlive = keepAlive;
    }

    /**
     * Body bytes arrived: kept up to {@link NonStreamBody#MAX_BYTES}, then the owner fails with the message.
     *
     * @param at  when they arrived, {@link System#nanoTime()}
     * @param b   the bytes (not kept)
     * @param off offset
     * @param len length
     */
    void data(long at, byte[] b, int off, int len) {
        if (owner.finished()) {
            return; // keep-alive: the rest of the body is discarded so that the connection can be reused
        }
        owner.active(at);
        if (!body.append(b, off, len)) {
            end();
            if (!keepAlive) {
                owner.closeConnection();
            }
        }
    }

    /** The body ended: the owner fails with the message. */
    void ended() {
        if (!owner.finished()) {
            end();
            if (!keepAlive) {
                owner.closeConnection();
            }
        }
    }

    /** The body's read failed: the owner fails with the message read so far, and the connection is closed. */
    void failed() {
        if (!owner.finished()) {
            end();
            owner.closeConnection();
        }
    }

    /** Fails the owner with the server's message as read so far, at the failure's end or now. */
    void end() {
        owner.finish(endAt >= 0 ? endAt : System.nanoTime(), body.error());
    }

    /** @return body bytes received so far */
    long bytes() {
        return body.bytes();
    }
}
