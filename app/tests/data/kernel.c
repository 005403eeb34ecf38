/* The module of the pull-request gate's end-to-end test (scripts/bench-pr): WORK rounds of
 * FNV-1a over a counter, about 0.1 s at 60 million; the test builds it at two revisions
 * that differ only in WORK. Prints its checksum, one integer (timed by its execute phase). */
#include <stdio.h>

#ifndef WORK
#define WORK 60000000u
#endif

int main(void) {
    volatile unsigned sink = 0;
    unsigned h = 2166136261u;
    for (unsigned i = 0; i < WORK; i++) {
        h = (h ^ (i & 0xff)) * 16777619u;
    }
    sink = h;
    printf("%u\n", sink & 1u);
    return 0;
}
