package io.timewheel.wheel;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Issue 26: KeySort.radixSort against the byte-per-pass radix sort it had before (copied below as it was), on
 * keys built as the wheel's sorted run builds them ((offset << 22) | index, offsets random in a band of
 * {@code bits} bits): ns per key, the last 6 of 12 rounds, both in one JVM, alternating. A probe, not part of the
 * build (package io.timewheel.wheel, to reach the package-private class):
 * <pre>
 * javac -d /tmp/rw -cp executor/target/classes bench/probes/RadixWidth.java
 * for n in 300 1000 4000 13000; do for bits in 16 20 26; do
 *   java -cp executor/target/classes:/tmp/rw io.timewheel.wheel.RadixWidth $n $bits; done; done
 * </pre>
 */
public class RadixWidth {
    /** The radix sort before 11-bit passes: a pass per byte of the band. */
    static void bytePasses(long[] keys, long[] buffer, int[] count, int n, int shift, int bits) {
        long[] from = keys, to = buffer;
        for (int s = shift; s < shift + bits; s += 8) {
            Arrays.fill(count, 0, 257, 0);
            for (int i = 0; i < n; i++) {
                count[(int) ((from[i] >>> s) & 255) + 1]++;
            }
            if (count[(int) ((from[0] >>> s) & 255) + 1] == n) {
                continue;
            }
            for (int b = 0; b < 256; b++) {
                count[b + 1] += count[b];
            }
            for (int i = 0; i < n; i++) {
                long key = from[i];
                to[count[(int) ((key >>> s) & 255)]++] = key;
            }
            long[] t = from;
            from = to;
            to = t;
        }
        if (from != keys) {
            System.arraycopy(from, 0, keys, 0, n);
        }
    }

    public static void main(String[] a) {
        int n = Integer.parseInt(a[0]), bits = Integer.parseInt(a[1]);
        SplittableRandom random = new SplittableRandom(1);
        long[] source = new long[n];
        for (int i = 0; i < n; i++) {
            source[i] = (random.nextLong(1L << bits) << 22) | i;
        }
        long[] expected = source.clone();
        Arrays.sort(expected);
        long[] keys = new long[n], buffer = new long[n];
        int[] count = new int[KeySort.WIDE_RADIX + 1];
        StringBuilder[] out = {new StringBuilder("before (bytes)"), new StringBuilder("now (KeySort)")};
        for (int round = 0; round < 12; round++) {
            for (int v = 0; v < 2; v++) {
                int reps = 20_000_000 / n;
                long t0 = System.nanoTime();
                for (int i = 0; i < reps; i++) {
                    System.arraycopy(source, 0, keys, 0, n);
                    if (v == 0) {
                        bytePasses(keys, buffer, count, n, 22, bits);
                    } else {
                        KeySort.radixSort(keys, buffer, count, n, 22, bits);
                    }
                }
                long t = System.nanoTime() - t0;
                if (!Arrays.equals(keys, expected)) {
                    throw new AssertionError("not sorted: " + out[v]);
                }
                if (round >= 6) {
                    out[v].append(String.format(" %.2f", t / (double) reps / n));
                }
            }
        }
        System.out.printf("n=%d bits=%d, ns per key (copy included): %s | %s%n", n, bits, out[0], out[1]);
    }
}
