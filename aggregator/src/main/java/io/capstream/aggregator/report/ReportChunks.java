package io.capstream.aggregator.report;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.HttpPhaseStats;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.serde.AvroWireFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * How a report travels as bounded records (issue 11), and how readers put it back together.
 *
 * <p><b>Small reports</b> are one {@link BenchmarkReport} record on {@code capstream.reports}, as
 * before: the typed fields, the typed rows and the whole artifact in {@code artifact_json}, when
 * that record encodes to at most {@value #INLINE_RECORD_BYTES} bytes (runs up to about 600
 * requests). <b>Larger reports</b> are split: the artifact's UTF-8 bytes go in pieces of at most
 * {@value #CHUNK_BYTES} bytes to {@code capstream.reports.chunks} ({@link ReportChunk}, key
 * {@link #chunkKey}), and the report record keeps the typed summary (header, metrics, provenance)
 * with {@code artifact_json} empty, {@code request_timings} and {@code failures} empty and
 * {@code context_distribution}, {@code timeline} and {@code sessions.per_request} null, plus {@code artifact_chunks}, {@code artifact_bytes} and
 * {@code artifact_sha256}; it keeps {@code workers} (one small entry per worker, for the console summary). The chunks are published before the report record in the same
 * exactly-once transaction, so a read_committed reader that sees the report can read all its chunks.
 * Every record stays below {@value #MAX_RECORD_BYTES} bytes (the broker's default
 * {@code message.max.bytes} is 1,048,588): a chunk record is its data plus about 100 bytes; a report
 * record without rows is a few KB, at most the strings of its RunStarted ({@code EventBounds}, at most
 * 512 KiB) plus the missing request indices (at most 100,000 varints, about 300 KB).
 *
 * <p>Stateless and thread-safe, except {@link Assembly} (one per report being read).
 */
public final class ReportChunks {
    /** Most artifact bytes in one chunk: 256 KiB. */
    public static final int CHUNK_BYTES = 256 * 1024;
    /** A report whose whole record (rows included) encodes to at most this many bytes is published inline: 512 KiB. */
    public static final int INLINE_RECORD_BYTES = 512 * 1024;
    /** Most bytes any record of a report may encode to (wire format, before compression): 960 KiB. */
    public static final int MAX_RECORD_BYTES = 960 * 1024;

    private static final HexFormat HEX = HexFormat.of();

    private ReportChunks() {
    }

    /**
     * The records that publish one report.
     *
     * @param report             the report record (inline, or the summary of a chunked report); not null
     * @param chunks             the artifact's chunks in index order; empty for an inline report
     * @param reportRecordBytes  the report record's encoded size (wire format, before compression), bytes
     * @param largestChunkBytes  the largest chunk record's encoded size, bytes; 0 without chunks
     */
    public record Publication(BenchmarkReport report, List<ReportChunk> chunks, int reportRecordBytes,
                              int largestChunkBytes) {
        /** @return whether the artifact travels in chunks */
        public boolean chunked() {
            return !chunks.isEmpty();
        }
    }

    /** Even without its rows, a report record would be larger than {@link #MAX_RECORD_BYTES}. */
    public static final class ReportTooLargeException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ReportTooLargeException(String message) {
            super(message);
        }
    }

    /**
     * Splits a computed report into the records that publish it. The argument is not modified; the
     * returned records share its strings and nested records (do not modify either afterwards).
     *
     * @param full a report as {@code ReportCalculator} computes it (rows and {@code artifact_json} set); not null
     * @return the inline record, or the summary record and the chunks
     * @throws ReportTooLargeException when even the summary record would exceed {@link #MAX_RECORD_BYTES}
     */
    public static Publication publication(BenchmarkReport full) {
        String artifact = full.getArtifactJson();
        // The artifact is ASCII (spec §9.1, ensure_ascii), so chars = bytes; UTF-8 keeps the bound for any text.
        if (artifact.length() <= INLINE_RECORD_BYTES) {
            byte[] bytes = artifact.getBytes(StandardCharsets.UTF_8);
            BenchmarkReport inline = copy(full);
            inline.setArtifactChunks(0);
            inline.setArtifactBytes(bytes.length);
            inline.setArtifactSha256(sha256(bytes, bytes.length));
            int size = encodedSize(inline);
            if (size <= INLINE_RECORD_BYTES) {
                return new Publication(inline, List.of(), size, 0);
            }
        }
        byte[] bytes = artifact.getBytes(StandardCharsets.UTF_8);
        String sha = sha256(bytes, bytes.length);
        int count = Math.max(1, (bytes.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        List<ReportChunk> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int from = i * CHUNK_BYTES;
            int len = Math.min(CHUNK_BYTES, bytes.length - from);
            chunks.add(ReportChunk.newBuilder().setRunId(full.getRunId()).setArtifactSha256(sha).setIndex(i)
                    .setCount(count).setData(ByteBuffer.wrap(bytes, from, len).slice()).build());
        }
        BenchmarkReport summary = copy(full);
        summary.setArtifactJson("");
        summary.setRequestTimings(List.of());
        summary.setFailures(List.of());
        summary.setContextDistribution(null);
        summary.setTimeline(null);
        if (summary.getSessions() != null) {
            summary.setSessions(io.capstream.schemas.avro.SessionStats.newBuilder(summary.getSessions())
                    .setPerRequest(null).build());
        }
        RunStatistics stats = summary.getStatistics();
        if (stats != null && stats.getHttpPhases() != null && stats.getHttpPhases().getPerRequest() != null) {
            // issue 30: the per-request phases are rows too (in the artifact's chunks, not in the summary record)
            stats = RunStatistics.newBuilder(stats).setHttpPhases(HttpPhaseStats.newBuilder(
                    stats.getHttpPhases()).setPerRequest(null).build()).build();
            summary.setStatistics(stats);
        }
        if (stats != null && stats.getServerView() != null) {
            // issue 33: the per-request server view is rows too (its distributions stay in the record)
            summary.setStatistics(RunStatistics.newBuilder(stats).setServerView(null).build());
        }
        summary.setArtifactChunks(count);
        summary.setArtifactBytes(bytes.length);
        summary.setArtifactSha256(sha);
        int size = encodedSize(summary);
        if (size > MAX_RECORD_BYTES) {
            throw new ReportTooLargeException("the report record of run " + full.getRunId() + " would be " + size
                    + " bytes without its rows, more than " + MAX_RECORD_BYTES + " (" + full.getProvenance()
                    .getMissingRequestIndices().size() + " missing request indices)");
        }
        // measured on a copy: the chunk's buffer is left exactly as the sink will read it
        return new Publication(summary, chunks, size, encodedSize(ReportChunk.newBuilder(chunks.get(0)).build()));
    }

    /**
     * @param runId run id; not null
     * @param index chunk index, &gt;= 0
     * @return the chunk's key on {@code capstream.reports.chunks}: {@code <runId>|<index>} (decimal)
     */
    public static String chunkKey(String runId, int index) {
        return runId + "|" + index;
    }

    /**
     * @param report a report record as read from {@code capstream.reports}; not null
     * @return whether its artifact is in chunks ({@code artifact_chunks > 0}) rather than in {@code artifact_json}
     */
    public static boolean isChunked(BenchmarkReport report) {
        return report.getArtifactChunks() > 0;
    }

    /**
     * @param report a report record; not null
     * @param artifact the whole artifact text; not null
     * @return a shallow copy of {@code report} whose {@code artifact_json} is {@code artifact} (the
     *         chunk fields are kept, so the copy still says how it travelled)
     */
    public static BenchmarkReport withArtifact(BenchmarkReport report, String artifact) {
        BenchmarkReport out = copy(report);
        out.setArtifactJson(Objects.requireNonNull(artifact, "artifact"));
        return out;
    }

    /**
     * Collects the chunks of one publication of a report (one run id and artifact digest) in any
     * order and gives back the artifact text. Chunks of other publications are refused. Not thread-safe.
     */
    public static final class Assembly {
        private final String runId;
        private final String sha256;
        private final byte[][] parts;
        private int have;
        private long bytes;

        /**
         * @param runId  run id; not null
         * @param sha256 the artifact's digest (the report's {@code artifact_sha256}); not null
         * @param count  number of chunks, &gt;= 1
         */
        public Assembly(String runId, String sha256, int count) {
            if (count < 1) {
                throw new IllegalArgumentException("count must be >= 1: " + count);
            }
            this.runId = Objects.requireNonNull(runId, "runId");
            this.sha256 = Objects.requireNonNull(sha256, "sha256");
            this.parts = new byte[count][];
        }

        /**
         * @param first a chunk; not null
         * @return an assembly for that chunk's publication (the chunk is not added)
         */
        public static Assembly forChunk(ReportChunk first) {
            return new Assembly(first.getRunId(), first.getArtifactSha256(), Math.max(1, first.getCount()));
        }

        /**
         * @param chunk a chunk; not null
         * @return true when it belongs to this publication and was new; false otherwise (ignored)
         */
        public boolean add(ReportChunk chunk) {
            int i = chunk.getIndex();
            if (!runId.equals(chunk.getRunId()) || !sha256.equals(chunk.getArtifactSha256())
                    || chunk.getCount() != parts.length || i < 0 || i >= parts.length || parts[i] != null) {
                return false;
            }
            ByteBuffer data = chunk.getData().duplicate();
            byte[] b = new byte[data.remaining()];
            data.get(b);
            parts[i] = b;
            have++;
            bytes += b.length;
            return true;
        }

        /** @return the digest this assembly collects (the report's {@code artifact_sha256}) */
        public String digest() {
            return sha256;
        }

        /** @return chunks collected so far */
        public int received() {
            return have;
        }

        /** @return chunks expected */
        public int count() {
            return parts.length;
        }

        /** @return artifact bytes collected so far */
        public long receivedBytes() {
            return bytes;
        }

        /** @return whether every chunk is in */
        public boolean complete() {
            return have == parts.length;
        }

        /**
         * @return the artifact text (UTF-8 decoded)
         * @throws IllegalStateException when a chunk is missing, or the bytes do not match the digest
         */
        public String text() {
            return new String(artifactBytes(), StandardCharsets.UTF_8);
        }

        /**
         * @return the artifact's UTF-8 bytes (a new array)
         * @throws IllegalStateException when a chunk is missing, or the bytes do not match the digest
         */
        public byte[] artifactBytes() {
            if (!complete()) {
                throw new IllegalStateException("report of run " + runId + ": " + have + " of " + parts.length
                        + " chunks");
            }
            if (bytes > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("report of run " + runId + ": " + bytes + " bytes is too large");
            }
            byte[] all = new byte[(int) bytes];
            int at = 0;
            for (byte[] p : parts) {
                System.arraycopy(p, 0, all, at, p.length);
                at += p.length;
            }
            String digest = ReportChunks.sha256(all, all.length);
            if (!digest.equals(sha256)) {
                throw new IllegalStateException("report of run " + runId + ": the chunks' SHA-256 is " + digest
                        + ", the report says " + sha256);
            }
            return all;
        }
    }

    /**
     * @param bytes data; not null
     * @param length how many leading bytes to hash
     * @return SHA-256 of the first {@code length} bytes, lower-case hex
     */
    static String sha256(byte[] bytes, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes, 0, length);
            return HEX.formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    /** A shallow copy (every field, nested values shared). */
    private static BenchmarkReport copy(BenchmarkReport r) {
        BenchmarkReport out = new BenchmarkReport();
        for (Schema.Field f : BenchmarkReport.getClassSchema().getFields()) {
            out.put(f.pos(), r.get(f.pos()));
        }
        return out;
    }

    /**
     * @param record an Avro record; not null
     * @return its encoded size in the Confluent wire format (header + Avro binary), bytes
     */
    static int encodedSize(SpecificRecord record) {
        CountingStream counter = new CountingStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(counter, null);
        try {
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return AvroWireFormat.HEADER_LENGTH + (int) Math.min(Integer.MAX_VALUE, counter.count);
    }

    private static final class CountingStream extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
