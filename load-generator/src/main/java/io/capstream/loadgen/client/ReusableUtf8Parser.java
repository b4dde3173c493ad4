package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonReadContext;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;

/**
 * A UTF-8 JSON parser over a byte array that is reset for each SSE payload instead of being made anew (issue 33
 * item 4: a new Jackson parser per payload, with its {@code IOContext}, read contexts, symbol table child and
 * buffers, was ~18% of the event loop at 256 streams, plus the page faults of that allocation). One per thread
 * ({@link #acquire}), so the event loop parses every payload with the same parser, read contexts and name table.
 *
 * <p>{@link #reset} puts every field of Jackson's parser that a parse reads or advances back to the state of a
 * newly made parser over the payload (input window, position and row counters, token and number state, the root
 * read context, the text buffer), so a payload decodes exactly as with {@link Utf8JsonFactory#createParser(byte[],
 * int, int)}: same features ({@code NaN}/{@code Infinity} accepted, no encoding detection, a BOM invalid), same
 * results and errors. A parser whose parse threw is dropped rather than reused ({@link #release}), as is one whose
 * name table grew past {@value #MAX_NAMES} names (a server with changing member names must not grow it forever).
 * Not thread-safe: used by its thread only, one payload at a time; a nested use on the same thread gets a parser of
 * its own.
 */
final class ReusableUtf8Parser extends UTF8StreamJsonParser {
    /** Names in the parser's table above which it is dropped after the payload, not reused. */
    static final int MAX_NAMES = 1024;

    private static final ThreadLocal<ReusableUtf8Parser> PER_THREAD = new ThreadLocal<>();

    private final JsonReadContext root;
    private final boolean perThread;
    private boolean inUse;

    ReusableUtf8Parser(IOContext ctxt, int features, ObjectCodec codec, ByteQuadsCanonicalizer symbols,
            boolean perThread) {
        super(ctxt, features, null, codec, symbols, new byte[0], 0, 0, false);
        this.root = _parsingContext;
        this.perThread = perThread;
    }

    /**
     * The calling thread's parser, reset to parse {@code b[off, off + len)}; a parser of its own when the thread's
     * one is in use (a nested parse). Hand it back with {@link #release} when the payload is done.
     *
     * @param b   the payload's bytes (read during the parse only; not retained beyond the next reset)
     * @param off offset of the payload
     * @param len length of the payload, bytes
     * @return a parser positioned before the payload's first token; never null
     */
    static ReusableUtf8Parser acquire(byte[] b, int off, int len) {
        ReusableUtf8Parser p = PER_THREAD.get();
        if (p == null) {
            p = Utf8JsonFactory.INSTANCE.reusableParser(true);
            PER_THREAD.set(p);
        } else if (p.inUse) {
            p = Utf8JsonFactory.INSTANCE.reusableParser(false);
        }
        p.inUse = true;
        p.reset(b, off, len);
        return p;
    }

    /**
     * Ends this parser's use for the current payload.
     *
     * @param reusable false when the parse threw (or did not finish): the thread's parser is then dropped and a new
     *                 one made for its next payload
     */
    void release(boolean reusable) {
        inUse = false;
        _inputBuffer = NO_BYTES; // the payload's bytes are not kept
        _inputPtr = 0;
        _inputEnd = 0;
        if (perThread && (!reusable || _symbols.size() > MAX_NAMES) && PER_THREAD.get() == this) {
            PER_THREAD.remove();
        }
    }

    /** Puts the parser in the state of a new parser over {@code b[off, off + len)}. */
    private void reset(byte[] b, int off, int len) {
        _inputBuffer = b;
        _inputPtr = off;
        _inputEnd = off + len;
        _currInputProcessed = -off;
        _currInputRow = 1;
        _currInputRowStart = off;
        _tokenInputTotal = 0;
        _tokenInputRow = 1;
        _tokenInputCol = 0;
        _nameStartOffset = 0;
        _nameStartRow = 0;
        _nameStartCol = 0;
        _closed = false;
        _currToken = null;
        _lastClearedToken = null;
        _nextToken = null;
        _tokenCount = 0;
        _tokenIncomplete = false;
        _nameCopied = false;
        _binaryValue = null;
        _numTypesValid = NR_UNKNOWN;
        _numberString = null;
        _numberBigInt = null;
        _numberBigDecimal = null;
        _numberIsNaN = false;
        _textBuffer.resetWithEmpty();
        root.reset(JsonStreamContext.TYPE_ROOT, 1, 0);
        _parsingContext = root;
    }
}
