/* empty: does nothing, so every measured microsecond is the runtime's own cost (compile,
 * instantiate, WASI set-up, teardown) and the harness's. Prints one line so the known-answer
 * check still runs, and times its (empty) measured region like every other test. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "quick") != 0 && strcmp(argv[1], "full") != 0) {
        fprintf(stderr, "unknown size '%s'\n", argv[1]);
        return 2;
    }
    uint64_t t0 = now_ns();
    uint64_t t1 = now_ns();
    printf("empty ok\n");
    printf("wasmeter:time_ns=%llu\n", (unsigned long long)(t1 - t0));
    return 0;
}
