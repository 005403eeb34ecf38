/* zstd.c - the `apps` suite's zstd driver (written here; zstd is the library that the
 * crates.io package zstd-sys ships).
 *
 * Compresses a generated text corpus at levels 3 and 12 and decompresses each result,
 * checking the round trip; prints the compressed sizes and a checksum of the compressed
 * bytes (zstd's output is the same on every platform for one version and level).
 * Timed: the compressions and decompressions. `zstd [quick|full]`.
 */
#include "common.h"
#include "corpus.h"
#include "zstd.h"

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const size_t n = full ? (48u << 20) : (3u << 20);
    const int levels[] = {3, 12};
    char *input = wm_alloc(n + 1);
    corpus_make(input, n, 7);
    size_t bound = ZSTD_compressBound(n);
    char *packed = wm_alloc(bound);
    char *unpacked = wm_alloc(n);
    size_t sizes[2];
    uint64_t sums[2];
    int ok = 1;

    uint64_t elapsed = 0;
    for (int i = 0; i < 2; i++) {
        uint64_t t0 = wm_now_ns();
        size_t c = ZSTD_compress(packed, bound, input, n, levels[i]);
        if (ZSTD_isError(c)) {
            fprintf(stderr, "zstd: compress: %s\n", ZSTD_getErrorName(c));
            return 1;
        }
        size_t d = ZSTD_decompress(unpacked, n, packed, c);
        elapsed += wm_now_ns() - t0;
        if (ZSTD_isError(d)) {
            fprintf(stderr, "zstd: decompress: %s\n", ZSTD_getErrorName(d));
            return 1;
        }
        ok &= d == n && memcmp(unpacked, input, n) == 0;
        sizes[i] = c;
        sums[i] = wm_fnv64(packed, c);
    }

    printf("zstd %s\n", ZSTD_versionString());
    printf("input %zu bytes fnv %016llx\n", n, (unsigned long long)wm_fnv64(input, n));
    for (int i = 0; i < 2; i++) {
        printf("level %d: %zu bytes fnv %016llx\n", levels[i], sizes[i],
               (unsigned long long)sums[i]);
    }
    printf("round trip %s\n", ok ? "ok" : "FAILED");
    wm_report(elapsed);
    fflush(stdout);
    return ok ? 0 : 1;
}
