package io.timewheel.wheel;

/**
 * Sorts of primitive keys for {@link TimerWheel}'s batches, with no allocation (the JDK's Arrays.sort may
 * allocate a buffer when it finds runs): an in-place quicksort, stack depth O(log n), and an LSD radix sort
 * over a band of bits, branch-free and O(n) per byte of the band, for large batches of keys that differ only
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

    /** Buckets per radix pass: one byte of the key. */
    static final int RADIX = 256;

    /**
     * Sorts keys[0..n) by bits [shift, shift + bits) of each key, stable, so keys equal in that band keep
     * their order. The keys must not differ above the band. {@code buffer} holds at least n keys and
     * {@code count} at least RADIX + 1 ints; both are scratch.
     */
    static void radixSort(long[] keys, long[] buffer, int[] count, int n, int shift, int bits) {
        long[] from = keys, to = buffer;
        for (int s = shift; s < shift + bits; s += 8) {
            java.util.Arrays.fill(count, 0, RADIX + 1, 0);
            for (int i = 0; i < n; i++) {
                count[(int) ((from[i] >>> s) & (RADIX - 1)) + 1]++;
            }
            if (count[(int) ((from[0] >>> s) & (RADIX - 1)) + 1] == n) {
                continue; // every key has the same byte here: the pass would copy them in order
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

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
