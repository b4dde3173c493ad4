package io.capstream.loadgen.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;

/**
 * The JSON factory of the per-chunk decoders: a byte-array parser is made as a UTF-8 parser at once, without
 * Jackson's encoding detection ({@code ByteSourceJsonBootstrapper}, which looks for a BOM and UTF-16/32 patterns
 * on every payload): an SSE stream is UTF-8 by definition (WHATWG), and detecting cost about a tenth of a chunk's
 * decoding on the event loop. A payload starting with a UTF-8 BOM is then invalid JSON, as for the reference's
 * {@code json.loads} of a decoded line ("Unexpected UTF-8 BOM"). {@code NaN} and {@code Infinity} are accepted.
 * Other sources (strings, streams) are parsed as by a plain {@link JsonFactory}. Immutable, thread-safe.
 */
final class Utf8JsonFactory extends JsonFactory {
    private static final long serialVersionUID = 1L;

    /** The shared instance. */
    static final Utf8JsonFactory INSTANCE = new Utf8JsonFactory(
            (JsonFactoryBuilder) JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS));

    private Utf8JsonFactory(JsonFactoryBuilder b) {
        super(b);
    }

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) {
        return new UTF8StreamJsonParser(ctxt, _parserFeatures, null, _objectCodec,
                _byteSymbolCanonicalizer.makeChild(_factoryFeatures), data, offset, offset + len, false);
    }

    /**
     * A parser to be reset for each payload ({@link ReusableUtf8Parser}), with this factory's features; its
     * content reference is unknown (the payload changes).
     *
     * @param perThread whether it becomes the calling thread's parser
     * @return a new parser over no input
     */
    ReusableUtf8Parser reusableParser(boolean perThread) {
        return new ReusableUtf8Parser(_createContext(ContentReference.unknown(), false), _parserFeatures, _objectCodec,
                _byteSymbolCanonicalizer.makeChild(_factoryFeatures), perThread);
    }
}
