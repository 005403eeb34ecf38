/* bzip2.c - the `apps` suite's bzip2 driver (written here; bzip2 1.0.8 is the source that
 * the crates.io package bzip2-sys ships).
 *
 * Compresses a generated text corpus with 900 kB blocks and decompresses it, checking the
 * round trip; prints the compressed size and a checksum of the compressed bytes.
 * Timed: the compression and the decompression. `bzip2 [quick|full]`.
 */
#include "common.h"
#include "corpus.h"
#include "bzlib.h"

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const unsigned n = full ? (20u << 20) : (1u << 20);
    char *input = wm_alloc(n + 1);
    corpus_make(input, n, 11);
    unsigned bound = n + n / 100 + 600;
    char *packed = wm_alloc(bound);
    char *unpacked = wm_alloc(n);

    uint64_t t0 = wm_now_ns();
    unsigned c = bound;
    int rc = BZ2_bzBuffToBuffCompress(packed, &c, input, n, 9, 0, 30);
    if (rc != BZ_OK) {
        fprintf(stderr, "bzip2: compress failed (%d)\n", rc);
        return 1;
    }
    unsigned d = n;
    rc = BZ2_bzBuffToBuffDecompress(unpacked, &d, packed, c, 0, 0);
    uint64_t t1 = wm_now_ns();
    if (rc != BZ_OK) {
        fprintf(stderr, "bzip2: decompress failed (%d)\n", rc);
        return 1;
    }
    int ok = d == n && memcmp(unpacked, input, n) == 0;

    printf("bzip2 %s\n", BZ2_bzlibVersion());
    printf("input %u bytes fnv %016llx\n", n, (unsigned long long)wm_fnv64(input, n));
    printf("compressed %u bytes fnv %016llx\n", c, (unsigned long long)wm_fnv64(packed, c));
    printf("round trip %s\n", ok ? "ok" : "FAILED");
    wm_report(t1 - t0);
    fflush(stdout);
    return ok ? 0 : 1;
}
