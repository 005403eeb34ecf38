/* common.h - shared helpers for the wasmeter `compute` suite.
 *
 * Every test is a WASI command: `test [quick|full]`.  It prints its known
 * answer on stdout plus one line `wasmeter:time_ns=<u64>` holding the
 * nanoseconds spent in the benchmark kernel only (no start-up, no self-test,
 * no printing).  Lines starting with `wasmeter:` are not part of the known
 * answer.  Everything here works the same on Linux (glibc) and wasi-libc.
 */
#ifndef WASMETER_COMMON_H
#define WASMETER_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic clock in nanoseconds. */
static inline uint64_t wm_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Print the self-timing line of the protocol. */
static inline void wm_report(uint64_t ns) {
    printf("wasmeter:time_ns=%llu\n", (unsigned long long)ns);
}

/* argv[1]: "quick" (default) -> 0, "full" -> 1, anything else -> exit 2. */
static inline int wm_size(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "quick") == 0) return 0;
    if (strcmp(argv[1], "full") == 0) return 1;
    fprintf(stderr, "unknown size '%s'\n", argv[1]);
    exit(2);
}

/* Report a known-answer self-test; exits 1 when it failed. */
static inline void wm_selftest(int ok) {
    if (ok) {
        printf("selftest ok\n");
    } else {
        printf("selftest FAILED\n");
        fflush(stdout);
        exit(1);
    }
}

/* Flush stdout and give main's return value. */
static inline int wm_finish(void) {
    fflush(stdout);
    return 0;
}

/* Out-of-memory is fatal. */
static inline void *wm_alloc(size_t n) {
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(3);
    }
    return p;
}

/* splitmix64: deterministic pseudorandom numbers. */
static inline uint64_t wm_rand64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Fill a buffer with splitmix64 output, little-endian bytes. */
static inline void wm_fill(uint8_t *p, size_t n, uint64_t seed) {
    uint64_t s = seed;
    size_t i = 0;
    while (i < n) {
        uint64_t v = wm_rand64(&s);
        for (int b = 0; b < 8 && i < n; b++, i++) p[i] = (uint8_t)(v >> (8 * b));
    }
}

/* FNV-1a 64 checksum of bytes (used outside the timed region). */
static inline uint64_t wm_fnv64(const void *data, size_t n) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Compare bytes with a hex string (lowercase). */
static inline int wm_eq_hex(const uint8_t *p, size_t n, const char *hex) {
    static const char digits[] = "0123456789abcdef";
    if (strlen(hex) != 2 * n) return 0;
    for (size_t i = 0; i < n; i++) {
        if (hex[2 * i] != digits[p[i] >> 4] || hex[2 * i + 1] != digits[p[i] & 15]) return 0;
    }
    return 1;
}

/* Parse a hex string into bytes (for test vectors). */
static inline void wm_from_hex(uint8_t *out, const char *hex, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char c = hex[2 * i + k];
            v = (v << 4) | (unsigned)(c <= '9' ? c - '0' : (c | 32) - 'a' + 10);
        }
        out[i] = (uint8_t)v;
    }
}

/* Print `label <hex>` on one line. */
static inline void wm_print_hex(const char *label, const uint8_t *p, size_t n) {
    printf("%s ", label);
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    printf("\n");
}

static inline uint32_t wm_load32_le(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void wm_store32_le(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t wm_load64_le(const uint8_t *p) {
    return (uint64_t)wm_load32_le(p) | ((uint64_t)wm_load32_le(p + 4) << 32);
}

static inline void wm_store64_le(uint8_t *p, uint64_t v) {
    wm_store32_le(p, (uint32_t)v);
    wm_store32_le(p + 4, (uint32_t)(v >> 32));
}

#endif /* WASMETER_COMMON_H */
