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

    private ConsoleMask() {
    }

    /**
     * Wraps {@code System.out} and {@code System.err} until the returned handle is closed (which puts the
     * originals back and forgets the secrets added meanwhile).
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
        return () -> {
            synchronized (ConsoleMask.class) {
                maskedOut.flush();
                maskedErr.flush();
                System.setOut(out);
                System.setErr(err);
                mask = SecretMask.NONE;
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
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
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
