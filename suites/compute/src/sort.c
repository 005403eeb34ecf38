/* sort - sorting pseudorandom 32-bit integers: quicksort (median of three,
 * insertion sort for short runs) on 128 Ki keys and a bottom-up merge sort
 * on the same keys, repeated.  Prints a checksum of the sorted data. */
#include "common.h"

#define COUNT (1u << 17)

static void insertion_sort(uint32_t *a, size_t n) {
    for (size_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static void swap_u32(uint32_t *a, uint32_t *b) {
    uint32_t t = *a;
    *a = *b;
    *b = t;
}

/* Recurses into the smaller side only, so the stack stays O(log n). */
static void quick_sort(uint32_t *a, size_t n) {
    while (n > 24) {
        size_t mid = n / 2;
        if (a[mid] < a[0]) swap_u32(&a[mid], &a[0]);
        if (a[n - 1] < a[0]) swap_u32(&a[n - 1], &a[0]);
        if (a[n - 1] < a[mid]) swap_u32(&a[n - 1], &a[mid]);
        uint32_t pivot = a[mid];
        size_t i = 0, j = n - 1;
        for (;;) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i >= j) break;
            swap_u32(&a[i], &a[j]);
            i++;
            j--;
        }
        size_t left = j + 1; /* a[0..j] <= pivot <= a[j+1..n) */
        if (left < n - left) {
            quick_sort(a, left);
            a += left;
            n -= left;
        } else {
            quick_sort(a + left, n - left);
            n = left;
        }
    }
    insertion_sort(a, n);
}

static void merge_sort(uint32_t *a, uint32_t *tmp, size_t n) {
    uint32_t *src = a, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, n * sizeof *a);
}

static int is_sorted(const uint32_t *a, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (a[i - 1] > a[i]) return 0;
    return 1;
}

static int selftest(void) {
    uint32_t a[100], b[100], tmp[100];
    uint64_t s = 42;
    for (int i = 0; i < 100; i++) a[i] = b[i] = (uint32_t)(wm_rand64(&s) % 37);
    quick_sort(a, 100);
    merge_sort(b, tmp, 100);
    return is_sorted(a, 100) && memcmp(a, b, sizeof a) == 0;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 96 : 4;
    wm_selftest(selftest());

    uint32_t *a = wm_alloc(COUNT * sizeof *a);
    uint32_t *b = wm_alloc(COUNT * sizeof *b);
    uint32_t *tmp = wm_alloc(COUNT * sizeof *tmp);
    uint64_t seed = 10, check = 0;
    unsigned bad = 0;

    uint64_t total = 0;
    for (unsigned r = 0; r < rounds; r++) {
        /* the data generation is not timed */
        for (size_t i = 0; i < COUNT; i++) {
            uint64_t v = wm_rand64(&seed);
            /* every fourth round has many duplicates */
            a[i] = b[i] = (r % 4 == 3) ? (uint32_t)(v % 1000) : (uint32_t)v;
        }
        uint64_t t0 = wm_now_ns();
        quick_sort(a, COUNT);
        merge_sort(b, tmp, COUNT);
        total += wm_now_ns() - t0;
        if (!is_sorted(a, COUNT) || memcmp(a, b, COUNT * sizeof *a) != 0) bad++;
        for (size_t i = 0; i < COUNT; i += 97) check = check * 31 + a[i];
    }

    printf("rounds %u of %u keys\n", rounds, COUNT);
    printf("sorted %s, checksum %016llx\n", bad == 0 ? "ok" : "FAILED", (unsigned long long)check);
    wm_report(total);
    free(tmp);
    free(b);
    free(a);
    return wm_finish();
}
