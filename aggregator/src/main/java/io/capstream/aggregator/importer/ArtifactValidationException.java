package io.capstream.aggregator.importer;

/**
 * An artifact that cannot be imported: names the file and the offending field (a JSON path such as
 * {@code request_timings[3].ttft_ms}, or {@code <file>} when the whole file is bad).
 */
public final class ArtifactValidationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final String field;
    private final String detail;

    /**
     * @param file the artifact's file name (as given to the importer)
     * @param field the offending field path
     * @param message what is wrong
     */
    public ArtifactValidationException(String file, String field, String message) {
        super(file + ": " + field + ": " + message);
        this.file = file;
        this.field = field;
        this.detail = message;
    }

    /** @return the artifact's file name */
    public String file() {
        return file;
    }

    /** @return the offending field path */
    public String field() {
        return field;
    }

    /** @return what is wrong, without file and field */
    public String detail() {
        return detail;
    }
}
