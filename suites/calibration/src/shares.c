/* shares - a program whose time is known to split about 60/30/10 over three functions,
 * natively, so that a profile's attribution can be checked against it on every runtime.
 *
 * The three are different kinds of code, as a real program's are:
 *
 *     mix_words    about 60 %: 64-bit multiplies, shifts and rotates over an array in L1
 *     sum_bytes    about 30 %: a byte-by-byte checksum (loads, adds, a modulo per block)
 *     collatz      about 10 %: data-dependent branches on 32-bit integers
 *
 * Each is noinline and called once per round, so each is a function of its own in every
 * build, and no compiler can hoist its work out of the rounds (each round depends on the
 * last).  The program also times each call with the clock and prints the three totals on a
 * `wasmeter:split` line (which the answer check ignores): on any runtime, each function's
 * true share of the rounds, against which a profile's shares are checked.  The passes
 * below set the native split (measured: `./build.sh --expected` prints nothing of it; run
 * the native build and read its split line).  The timed region is the rounds only; the
 * known answer is the three results. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define WORDS 512
#define BYTES 4096
#define MIX_PASSES 100
#define SUM_PASSES 10
#define COLLATZ_STARTS 280

static uint64_t words[WORDS];
static uint8_t bytes[BYTES];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static uint64_t mix_words(uint64_t acc, int passes) {
    for (int p = 0; p < passes; p++) {
        for (int i = 0; i < WORDS; i++) {
            uint64_t x = words[i] ^ acc;
            x *= 0xff51afd7ed558ccdull;
            x ^= x >> 33;
            acc = ((acc << 23) | (acc >> 41)) + x;
            words[i] = x ^ (acc >> 17);
        }
    }
    return acc;
}

__attribute__((noinline)) static uint32_t sum_bytes(uint32_t seed, int passes) {
    uint32_t a = seed | 1, b = seed >> 16;
    for (int p = 0; p < passes; p++) {
        for (int i = 0; i < BYTES; i++) {
            a += bytes[i];
            b += a;
            if ((i & 1023) == 1023) {
                a %= 65521;
                b %= 65521;
            }
        }
        bytes[p & (BYTES - 1)] ^= (uint8_t)b;
    }
    return (b << 16) | a;
}

__attribute__((noinline)) static uint32_t collatz(uint32_t from, int starts) {
    uint32_t steps = 0;
    for (int s = 0; s < starts; s++) {
        uint32_t n = from + (uint32_t)s;
        while (n > 1) {
            n = (n & 1) ? 3 * n + 1 : n >> 1;
            steps++;
        }
    }
    return steps;
}

int main(int argc, char **argv) {
    unsigned rounds;
    if (argc < 2 || strcmp(argv[1], "quick") == 0) {
        rounds = 200;
    } else if (strcmp(argv[1], "full") == 0) {
        rounds = 2000;
    } else {
        fprintf(stderr, "unknown size '%s'\n", argv[1]);
        return 2;
    }
    uint64_t s = 0x7368617265730000ull; /* "shares" */
    for (int i = 0; i < WORDS; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        words[i] = s;
    }
    for (int i = 0; i < BYTES; i++) bytes[i] = (uint8_t)(words[i % WORDS] >> (8 * (i % 8)));

    uint64_t acc = 0;
    uint32_t sum = 0, steps = 0;
    uint64_t in_mix = 0, in_sum = 0, in_collatz = 0;
    uint64_t t0 = now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t a = now_ns();
        acc = mix_words(acc, MIX_PASSES);
        uint64_t b = now_ns();
        sum = sum_bytes(sum ^ (uint32_t)acc, SUM_PASSES);
        uint64_t c = now_ns();
        steps += collatz(1000u + (sum & 1023u), COLLATZ_STARTS);
        uint64_t d = now_ns();
        in_mix += b - a;
        in_sum += c - b;
        in_collatz += d - c;
    }
    uint64_t t1 = now_ns();

    printf("rounds %u\n", rounds);
    printf("mix %016llx sum %08x steps %u\n", (unsigned long long)acc, sum, steps);
    printf("wasmeter:split mix_words=%llu sum_bytes=%llu collatz=%llu\n", (unsigned long long)in_mix,
           (unsigned long long)in_sum, (unsigned long long)in_collatz);
    printf("wasmeter:time_ns=%llu\n", (unsigned long long)(t1 - t0));
    fflush(stdout);
    return 0;
}
