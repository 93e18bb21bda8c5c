package io.timewheel.wheel;

/**
 * An in-place sort of primitive keys for {@link TimerWheel}'s batches: no allocation (the JDK's Arrays.sort may
 * allocate a buffer when it finds runs), stack depth O(log n).
 */
final class KeySort {
    private KeySort() {
    }

    /** Sorts keys[from..to] in place: quicksort (median of three), insertion sort below 24 elements. */
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

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
