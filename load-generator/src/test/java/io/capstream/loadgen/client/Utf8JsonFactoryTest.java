package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8JsonFactoryTest {
    @Test
    void aByteArrayIsParsedAsUtf8AtOnceWithNonAsciiTextAndNaN() throws IOException {
        byte[] b = "xx{\"c\":\"caf\u00e9 \u2713\",\"n\":NaN}yy".getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = Utf8JsonFactory.INSTANCE.createParser(b, 2, b.length - 4)) {
            assertThat(p).as("no encoding detection: the UTF-8 parser").isInstanceOf(UTF8StreamJsonParser.class);
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(p.nextFieldName()).isEqualTo("c");
            assertThat(p.nextTextValue()).as("the slice's text").isEqualTo("caf\u00e9 \u2713");
            assertThat(p.nextFieldName()).isEqualTo("n");
            p.nextToken();
            assertThat(p.getDoubleValue()).as("NaN accepted, as by json.loads").isNaN();
            assertThat(p.nextToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(p.nextToken()).as("the end of the slice").isNull();
        }
    }
}
