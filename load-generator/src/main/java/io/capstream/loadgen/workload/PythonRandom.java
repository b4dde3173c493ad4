package io.capstream.loadgen.workload;

/**
 * Bit-compatible port of CPython's {@code random.Random(int)}: MT19937 seeded with
 * {@code init_by_array} of the absolute seed's 32-bit words (least significant first; seed 0 gives
 * {@code [0]}) and {@code random()} built from two tempered outputs as
 * {@code ((a >>> 5) * 67108864 + (b >>> 6)) / 2^53} (spec §3.2). Not thread-safe.
 */
public final class PythonRandom {
    private static final int N = 624;
    private static final int M = 397;
    private static final int MATRIX_A = 0x9908b0df;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7fffffff;

    private final int[] mt = new int[N];
    private int mti = N + 1;

    /** @param seed any integer; its absolute value is used, like CPython */
    public PythonRandom(long seed) {
        long mag = seed == Long.MIN_VALUE ? Long.MIN_VALUE : Math.abs(seed); // MIN_VALUE: unsigned 2^63
        int lo = (int) mag;
        int hi = (int) (mag >>> 32);
        initByArray(hi != 0 ? new int[] {lo, hi} : new int[] {lo});
    }

    private void initGenrand(int s) {
        mt[0] = s;
        for (mti = 1; mti < N; mti++) {
            mt[mti] = 1812433253 * (mt[mti - 1] ^ (mt[mti - 1] >>> 30)) + mti;
        }
    }

    private void initByArray(int[] key) {
        initGenrand(19650218);
        int i = 1;
        int j = 0;
        int k = Math.max(N, key.length);
        for (; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) {
                j = 0;
            }
        }
        for (k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x80000000;
    }

    /** @return the next tempered 32-bit MT19937 output, as an int (use {@code & 0xffffffffL} for unsigned) */
    public int nextInt32() {
        int y;
        if (mti >= N) {
            int kk;
            for (kk = 0; kk < N - M; kk++) {
                y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
                mt[kk] = mt[kk + M] ^ (y >>> 1) ^ ((y & 1) != 0 ? MATRIX_A : 0);
            }
            for (; kk < N - 1; kk++) {
                y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
                mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ ((y & 1) != 0 ? MATRIX_A : 0);
            }
            y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
            mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) != 0 ? MATRIX_A : 0);
            mti = 0;
        }
        y = mt[mti++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    /** @return CPython's {@code random()}: a double in [0, 1) with 53 random bits */
    public double random() {
        long a = (nextInt32() & 0xffffffffL) >>> 5;
        long b = (nextInt32() & 0xffffffffL) >>> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
}
