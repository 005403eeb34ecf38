/* fannkuch - the fannkuch-redux benchmark (Benchmarks Game style): flip
 * prefixes of every permutation of n elements, 5 times with n = 9 (quick) or
 * 6 times with n = 10 (full); prints the checksum and the maximum number of
 * flips (for n = 10: 73196 and 38, the Benchmarks Game's reference). */
#include "common.h"

static int fannkuch(int n, int *checksum) {
    int perm[16], perm1[16], count[16];
    int r = n, max_flips = 0, sum = 0;
    long perm_count = 0;
    for (int i = 0; i < n; i++) perm1[i] = i;
    for (;;) {
        while (r != 1) {
            count[r - 1] = r;
            r--;
        }
        memcpy(perm, perm1, sizeof(int) * (size_t)n);
        int flips = 0, k;
        while ((k = perm[0]) != 0) {
            for (int i = 0, j = k; i < j; i++, j--) {
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            flips++;
        }
        if (flips > max_flips) max_flips = flips;
        sum += (perm_count % 2 == 0) ? flips : -flips;
        /* next permutation in the benchmark's order */
        for (;;) {
            if (r == n) {
                *checksum = sum;
                return max_flips;
            }
            int perm0 = perm1[0];
            for (int i = 0; i < r; i++) perm1[i] = perm1[i + 1];
            perm1[r] = perm0;
            if (--count[r] > 0) break;
            r++;
        }
        perm_count++;
    }
}

static int selftest(void) {
    int checksum;
    int flips = fannkuch(7, &checksum);
    return flips == 16 && checksum == 228;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    int n = full ? 10 : 9, reps = full ? 6 : 5;
    wm_selftest(selftest());

    /* read n through a volatile so that no repetition can be folded away */
    volatile int vn = n;
    int checksum = 0, flips = 0, agree = 1;
    uint64_t t0 = wm_now_ns();
    for (int r = 0; r < reps; r++) {
        int c, f = fannkuch(vn, &c);
        if (r > 0 && (c != checksum || f != flips)) agree = 0;
        checksum = c;
        flips = f;
    }
    uint64_t t1 = wm_now_ns();

    printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, flips);
    printf("repetitions %d %s\n", reps, agree ? "agree" : "DISAGREE");
    wm_report(t1 - t0);
    return wm_finish();
}
