package io.capstream.schemas.text;

/**
 * What a run id may contain. A run id is the Kafka key of a run's events and report and part of
 * the default report file name ({@code capstream-report-<run_id>.json}), so it must not contain
 * {@code /} or {@code \} (it would name another directory), nor control characters (they garble
 * terminals and logs), and it is at most {@value #MAX_LENGTH} characters long. Checked for
 * {@code --run-id}, {@code --run-id-suffix} and the {@code run_id} of imported artifacts.
 */
public final class RunIdRule {
    /** Longest accepted run id, characters (the derived ids are 26, plus a suffix). */
    public static final int MAX_LENGTH = 200;

    private RunIdRule() {
    }

    /**
     * @param runId a run id, or null for none
     * @return what is wrong with it (e.g. {@code "must not contain '/' (it names the report file)"}),
     *         or null when it is acceptable or null
     */
    public static String problem(String runId) {
        if (runId == null) {
            return null;
        }
        if (runId.isBlank()) {
            return "must not be blank";
        }
        if (runId.length() > MAX_LENGTH) {
            return "is " + runId.length() + " characters long, at most " + MAX_LENGTH;
        }
        for (int i = 0; i < runId.length(); i++) {
            char c = runId.charAt(i);
            if (c == '/' || c == '\\') {
                return "must not contain '" + c + "' (it names the report file)";
            }
            int type = Character.getType(c);
            if (Character.isISOControl(c) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                return String.format("must not contain control characters (U+%04X at index %d)", (int) c, i);
            }
        }
        return null;
    }
}
