/* mix - the calibration suite's kernel: a fixed amount of pure CPU work, plus a planted
 * share more when built with -DPLANT_PCT=<percent>.
 *
 * A round mixes a 4 KiB buffer (512 64-bit words, always in L1) with one multiply, two
 * shifts and a rotate per word, carried through an accumulator so that no compiler can
 * vectorise, reorder or skip rounds.  Every round costs the same: no branch depends on the
 * data, no memory traffic beyond L1, no allocation.  The timed region is only the rounds:
 *
 *     BASE rounds, then BASE * PLANT_PCT / 100 planted rounds of the same chain
 *     BASE = 100000 quick, 1000000 full
 *
 * so a build with -DPLANT_PCT=5 does exactly 5 % more of the same work than one with
 * -DPLANT_PCT=0.  The known answer is the state after the BASE rounds (the accumulator and
 * an FNV-1a hash of the buffer), so it is the same for every PLANT_PCT: a planted wasm build
 * still matches the unplanted native build's expected files.  The planted rounds continue
 * the chain and their result is printed on a `wasmeter:planted=` line (ignored by the
 * answer check), so no compiler can drop them. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PLANT_PCT
#error "build with -DPLANT_PCT=<percent of extra work>, 0 for none"
#endif
#if PLANT_PCT < 0 || PLANT_PCT > 100
#error "PLANT_PCT must be 0..100"
#endif

#define WORDS 512
#define BASE_QUICK 100000u
#define BASE_FULL 1000000u
/* Three rounds from fill(1), for the self-test (the same natively and in wasm). */
#define SELFTEST_ACC 0xed497a54eac3d79eull
#define SELFTEST_FNV 0x217269ec5b714ad2ull
/* Every whole percent is a whole number of rounds at both sizes. */
_Static_assert(BASE_QUICK % 100 == 0 && BASE_FULL % 100 == 0, "BASE must be a multiple of 100");

static uint64_t buf[WORDS];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64, to fill the buffer deterministically. */
static uint64_t rand64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(uint64_t seed) {
    uint64_t s = seed;
    for (int i = 0; i < WORDS; i++) buf[i] = rand64(&s);
}

/* One round over the buffer; returns the new accumulator. */
static uint64_t mix_round(uint64_t acc) {
    for (int i = 0; i < WORDS; i++) {
        uint64_t x = buf[i] ^ acc;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 33;
        acc = ((acc << 23) | (acc >> 41)) + x;
        buf[i] = x ^ (acc >> 17);
    }
    return acc;
}

static uint64_t fnv64(const uint64_t *words) {
    const uint8_t *p = (const uint8_t *)words;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < WORDS * sizeof(uint64_t); i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int main(int argc, char **argv) {
    unsigned base;
    if (argc < 2 || strcmp(argv[1], "quick") == 0) {
        base = BASE_QUICK;
    } else if (strcmp(argv[1], "full") == 0) {
        base = BASE_FULL;
    } else {
        fprintf(stderr, "unknown size '%s'\n", argv[1]);
        return 2;
    }
    unsigned planted = base / 100u * PLANT_PCT;

    /* Self-test: three rounds from a known buffer. */
    fill(1);
    uint64_t t = mix_round(mix_round(mix_round(0)));
    if (t == SELFTEST_ACC && fnv64(buf) == SELFTEST_FNV) {
        printf("selftest ok\n");
    } else {
        printf("selftest FAILED\n");
        fflush(stdout);
        return 1;
    }

    fill(0x63616c6962726174ull); /* "calibrat" */
    static uint64_t answer[WORDS];
    uint64_t acc = 0;
    uint64_t t0 = now_ns();
    for (unsigned r = 0; r < base; r++) acc = mix_round(acc);
    uint64_t answer_acc = acc;
    memcpy(answer, buf, sizeof buf);
    for (unsigned r = 0; r < planted; r++) acc = mix_round(acc);
    uint64_t t1 = now_ns();

    printf("rounds %u of %u bytes\n", base, (unsigned)sizeof buf);
    printf("acc %016llx fnv %016llx\n", (unsigned long long)answer_acc, (unsigned long long)fnv64(answer));
    printf("wasmeter:planted=%u%% rounds=%u acc=%016llx\n", (unsigned)PLANT_PCT, planted, (unsigned long long)acc);
    printf("wasmeter:time_ns=%llu\n", (unsigned long long)(t1 - t0));
    fflush(stdout);
    return 0;
}
