package io.timewheel.wheel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** KeySort against Arrays.sort: the quicksort on whole keys, the radix sort on a band of bits (stable). */
class KeySortTest {

    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {1, 2, 23, 24, 25, 100, 1_000, 100_000})
    void quicksort_sortsLikeArraysSort(int n) {
        SplittableRandom random = new SplittableRandom(n);
        for (long range : new long[] {1, 3, 1000, Long.MAX_VALUE}) { // ranges with many, some and no ties
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = random.nextLong(range);
            }
            long[] expected = keys.clone();
            Arrays.sort(expected);
            KeySort.sort(keys, 0, n - 1);
            assertArrayEquals(expected, keys, "range " + range);
        }
    }

    /**
     * Keys built as the wheel builds them, (value << 22) | position, with values in a band of 1 to 41 bits:
     * radix sorting the band alone must give the order of the whole keys (the positions come in ascending,
     * so a stable sort of the band is a sort of the whole key).
     */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {1, 2, 127, 128, 511, 512, 1_000, 8_191, 8_192, 50_000}) // byte passes; 11-bit ones from 512 and 8192
    void radixSortOfTheBand_isStable_andSortsLikeArraysSort(int n) {
        SplittableRandom random = new SplittableRandom(n * 7L);
        // the counters the contract asks for: a byte pass's below WIDE_MIN keys, an 11-bit pass's from there
        int[] count = new int[n < KeySort.WIDE_MIN ? KeySort.RADIX + 1 : KeySort.WIDE_RADIX + 1];
        for (int bits = 1; bits <= 41; bits += 4) {
            for (long distinct : new long[] {2, 300, 1L << bits}) {
                long bound = Math.min(distinct, 1L << bits);
                long spread = (1L << bits) / bound; // values spread over the whole band
                long[] keys = new long[n];
                for (int i = 0; i < n; i++) {
                    keys[i] = (random.nextLong(bound) * spread << 22) | i;
                }
                long[] expected = keys.clone();
                Arrays.sort(expected);
                KeySort.radixSort(keys, new long[n], count, n, 22, bits);
                assertArrayEquals(expected, keys, bits + " bits, " + distinct + " distinct");
            }
        }
    }
}
