package io.timewheel.wheel;

/**
 * Sorts of primitive keys for {@link TimerWheel}'s batches, with no allocation (the JDK's Arrays.sort may
 * allocate a buffer when it finds runs): an in-place quicksort, stack depth O(log n), and an LSD radix sort
 * over a band of bits, O(n) per digit of the band with no branch per key, for large batches of keys that differ only
 * in a narrow band (the deadlines of one tick or one slot).
 */
final class KeySort {
    private KeySort() {
    }

    /** Sorts keys[from..to] in place: quicksort (median of three), insertion sort for 24 elements or fewer. */
    static void sort(long[] a, int from, int to) {
        while (to - from >= 24) {
            int mid = (from + to) >>> 1;
            if (a[mid] < a[from]) {
                swap(a, mid, from);
            }
            if (a[to] < a[from]) {
                swap(a, to, from);
            }
            if (a[to] < a[mid]) {
                swap(a, to, mid);
            }
            long pivot = a[mid];
            int i = from, j = to;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(a, i++, j--);
                }
            }
            // recurse into the smaller part, loop on the larger: stack depth O(log n)
            if (j - from < to - i) {
                sort(a, from, j);
                from = i;
            } else {
                sort(a, i, to);
                to = j;
            }
        }
        for (int i = from + 1; i <= to; i++) {
            long v = a[i];
            int k = i - 1;
            while (k >= from && a[k] > v) {
                a[k + 1] = a[k];
                k--;
            }
            a[k + 1] = v;
        }
    }

    /** Buckets per radix pass of one byte. */
    static final int RADIX = 256;
    /** Buckets per radix pass of 11 bits. */
    static final int WIDE_RADIX = 2048;
    /** Batches at least this large take two 11-bit passes where that saves a pass (see radixSort). */
    static final int WIDE_MIN = 512;
    /** Batches at least this large take three or more 11-bit passes where that saves a pass (see radixSort). */
    static final int WIDE_MIN_MORE = 8192;

    /**
     * Sorts keys[0..n) by bits [shift, shift + bits) of each key, stable, so keys equal in that band keep
     * their order. The keys must not differ above the band. {@code buffer} holds at least n keys and
     * {@code count} at least RADIX + 1 ints, WIDE_RADIX + 1 if n is WIDE_MIN or more; both are scratch.
     *
     * <p>A pass per byte of the band, or per 11 bits when that takes fewer passes and the batch is large
     * enough for the 2048 counters of a pass to cost less than the pass saved: at least WIDE_MIN keys for one
     * or two 11-bit passes (one tick's deadlines, 20 bits: two passes instead of three), WIDE_MIN_MORE for
     * three or more (26 bits: three passes instead of four), where the saving needs a larger batch to show
     * (WheelBenchmark advance and window decide both thresholds).
     */
    static void radixSort(long[] keys, long[] buffer, int[] count, int n, int shift, int bits) {
        int widePasses = (bits + 10) / 11;
        if (widePasses < (bits + 7) / 8 && n >= (widePasses <= 2 ? WIDE_MIN : WIDE_MIN_MORE)) {
            wideRadixSort(keys, buffer, count, n, shift, bits);
        } else {
            byteRadixSort(keys, buffer, count, n, shift, bits);
        }
    }

    /*
     * The two sorts below differ in their radix alone, a constant in each: shared code (one pass method taking
     * the mask as a parameter, or one pass method per radix called from one loop) runs the passes slower on
     * JDK 17 (WheelBenchmark advance).
     */

    /** radixSort, a pass per byte. */
    private static void byteRadixSort(long[] keys, long[] buffer, int[] count, int n, int shift, int bits) {
        long[] from = keys, to = buffer;
        for (int s = shift; s < shift + bits; s += 8) {
            java.util.Arrays.fill(count, 0, RADIX + 1, 0);
            for (int i = 0; i < n; i++) {
                count[(int) ((from[i] >>> s) & (RADIX - 1)) + 1]++;
            }
            if (count[(int) ((from[0] >>> s) & (RADIX - 1)) + 1] == n) {
                continue; // every key has the same digit here: the pass would copy them in order
            }
            for (int b = 0; b < RADIX; b++) {
                count[b + 1] += count[b];
            }
            for (int i = 0; i < n; i++) {
                long key = from[i];
                to[count[(int) ((key >>> s) & (RADIX - 1))]++] = key;
            }
            long[] t = from;
            from = to;
            to = t;
        }
        if (from != keys) {
            System.arraycopy(from, 0, keys, 0, n);
        }
    }

    /** radixSort, a pass per 11 bits. */
    private static void wideRadixSort(long[] keys, long[] buffer, int[] count, int n, int shift, int bits) {
        long[] from = keys, to = buffer;
        for (int s = shift; s < shift + bits; s += 11) {
            java.util.Arrays.fill(count, 0, WIDE_RADIX + 1, 0);
            for (int i = 0; i < n; i++) {
                count[(int) ((from[i] >>> s) & (WIDE_RADIX - 1)) + 1]++;
            }
            if (count[(int) ((from[0] >>> s) & (WIDE_RADIX - 1)) + 1] == n) {
                continue;
            }
            for (int b = 0; b < WIDE_RADIX; b++) {
                count[b + 1] += count[b];
            }
            for (int i = 0; i < n; i++) {
                long key = from[i];
                to[count[(int) ((key >>> s) & (WIDE_RADIX - 1))]++] = key;
            }
            long[] t = from;
            from = to;
            to = t;
        }
        if (from != keys) {
            System.arraycopy(from, 0, keys, 0, n);
        }
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
