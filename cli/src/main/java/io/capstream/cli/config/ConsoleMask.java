package io.capstream.cli.config;

import io.capstream.schemas.text.SecretMask;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The console's side of the secret masking: while a command runs ({@link #install()}), {@code System.out} and
 * {@code System.err} (and with them the log lines and the progress bar) pass every line through the secrets the
 * command was given ({@link #add}, e.g. a run's {@link io.capstream.loadgen.run.RunSecrets}) and the user-info of
 * any URL, before it reaches the terminal. Lines are masked whole: a line is held until its end ({@code \n} or
 * {@code \r}) or a flush. Thread-safe.
 */
public final class ConsoleMask {
    private static volatile SecretMask mask = SecretMask.NONE;
    /** Installs not closed yet (commands run in one JVM by tests may overlap). */
    private static int installed;

    private ConsoleMask() {
    }

    /**
     * Wraps {@code System.out} and {@code System.err} until the returned handle is closed, which puts the
     * originals back (unless they were replaced meanwhile) and, when no other install is open, forgets the secrets.
     *
     * @return the handle; closing it flushes what was held
     */
    public static synchronized Installed install() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream maskedOut = masking(out);
        PrintStream maskedErr = masking(err);
        System.setOut(maskedOut);
        System.setErr(maskedErr);
        installed++;
        return () -> {
            synchronized (ConsoleMask.class) {
                maskedOut.flush();
                maskedErr.flush();
                if (System.out == maskedOut) {
                    System.setOut(out);
                }
                if (System.err == maskedErr) {
                    System.setErr(err);
                }
                if (--installed == 0) {
                    mask = SecretMask.NONE;
                }
            }
        };
    }

    /** @param secrets secrets to mask on the console from now on (added to those already known); not null */
    public static synchronized void add(SecretMask secrets) {
        mask = mask.and(secrets);
    }

    /**
     * @param target where the masked lines go; not null
     * @return a print stream (UTF-8) that masks each line before writing it to {@code target}: a line goes out at
     *         its end or at a flush (not auto-flushing, which would cut lines at every print)
     */
    public static PrintStream masking(PrintStream target) {
        return new PrintStream(new LineMasker(target), false, StandardCharsets.UTF_8);
    }

    /** What {@link #install()} returns. */
    @FunctionalInterface
    public interface Installed extends AutoCloseable {
        @Override
        void close();
    }

    /** Holds bytes up to a line end, then writes the masked line. */
    private static final class LineMasker extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineMasker(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n' || b == '\r') {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int from = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n' || b[i] == '\r') {
                    line.write(b, from, i + 1 - from);
                    emit();
                    from = i + 1;
                }
            }
            line.write(b, from, off + len - from);
        }

        @Override
        public synchronized void flush() {
            emit();
        }

        private void emit() {
            if (line.size() > 0) {
                target.print(mask.apply(line.toString(StandardCharsets.UTF_8)));
                target.flush();
                line.reset();
            }
        }
    }
}
