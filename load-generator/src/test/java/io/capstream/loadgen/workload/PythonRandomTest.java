package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PythonRandomTest {
    @Test
    void seedZeroMatchesCpython() {
        PythonRandom r = new PythonRandom(0);
        double[] expected = {0.8444218515250481, 0.7579544029403025, 0.420571580830845, 0.25891675029296335,
            0.5112747213686085};
        for (double e : expected) {
            assertEquals(e, r.random(), 0.0);
        }
    }

    @Test
    void negativeSeedUsesAbsoluteValue() {
        PythonRandom a = new PythonRandom(-12345);
        PythonRandom b = new PythonRandom(12345);
        for (int i = 0; i < 100; i++) {
            assertEquals(b.random(), a.random(), 0.0);
        }
    }

    @Test
    void seedOneMatchesCpython() {
        // python3 -c "import random; r=random.Random(1); print(r.random(), r.random())"
        PythonRandom r = new PythonRandom(1);
        assertEquals(0.13436424411240122, r.random(), 0.0);
        assertEquals(0.8474337369372327, r.random(), 0.0);
    }

    @Test
    void largeSeedUsesTwoWords() {
        // python3 -c "import random; print(random.Random(2**40+7).random())"
        PythonRandom r = new PythonRandom((1L << 40) + 7);
        assertEquals(LARGE_SEED_FIRST, r.random(), 0.0);
    }

    static final double LARGE_SEED_FIRST = 0.6137037779936511;
}
