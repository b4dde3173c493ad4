package io.capstream.cli.tail;

/** Output format of {@code capstream tail}. */
public enum TailFormat {
    /** A readable fixed-width table, one line per record, header first. */
    TABLE,
    /** Pretty-printed JSON, one object per record (reports: the artifact JSON). */
    JSON,
    /** One compact JSON object per line (reports: the artifact JSON). */
    JSONL
}
