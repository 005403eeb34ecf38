/* A program that is not a benchmark: it loops for about 0.1 s and prints its checksum,
 * one integer. wasmeter must time it by its phases or process, never read the integer as
 * libsodium's picoseconds per iteration (issue 30: it was shown as 13 ns). */
#include <stdio.h>

int main(void) {
    volatile unsigned sink = 0;
    unsigned h = 2166136261u;
    for (unsigned i = 0; i < 60000000u; i++) {
        h = (h ^ (i & 0xff)) * 16777619u;
    }
    sink = h;
    printf("%u\n", 13288u + (sink & 0u));
    return 0;
}
