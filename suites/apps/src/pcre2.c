/* pcre2.c - the `apps` suite's PCRE2 driver (written here; PCRE2 is the source that the
 * crates.io package pcre2-sys ships, built without its JIT, which wasm cannot have, on
 * both sides).
 *
 * Matches a few patterns over a generated log-like text: addresses, dates with captures, a
 * case-insensitive alternation, a back-reference and an anchored multi-line pattern;
 * prints each pattern's match count and a checksum of the matched offsets. Timed: the
 * compilations and all the matching. `pcre2 [quick|full]`.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "common.h"
#include "corpus.h"
#include "pcre2.h"

static const char *const PATTERNS[] = {
    "[a-z]+[0-9]+@[a-z.]+\\.(?:com|org|net)",
    "(\\d{4})-(\\d{2})-(\\d{2}) (\\d{2}):",
    "(?i)(?:TIMEOUT|Retry|ERROR) [a-z]+",
    "\\b(\\w+) \\1\\b",
    "(?m)^[0-9-]+ [0-9:]+ (?:module|instance) .*$",
    "(?:[^ ]+ ){3}latency [0-9]+",
};

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const size_t n = full ? (12u << 20) : (512u << 10);
    char *text = wm_alloc(n + 1);
    corpus_make(text, n, 23);
    const size_t count = sizeof PATTERNS / sizeof PATTERNS[0];
    long matches[sizeof PATTERNS / sizeof PATTERNS[0]];
    uint64_t sum = 0xcbf29ce484222325ull;

    uint64_t t0 = wm_now_ns();
    for (size_t p = 0; p < count; p++) {
        int err;
        PCRE2_SIZE erroff;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)PATTERNS[p], PCRE2_ZERO_TERMINATED, 0, &err,
                                       &erroff, NULL);
        if (re == NULL) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            fprintf(stderr, "pcre2: pattern %zu at %zu: %s\n", p, (size_t)erroff, msg);
            return 1;
        }
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
        PCRE2_SIZE at = 0;
        long found = 0;
        int rc;
        while (at <= n &&
               (rc = pcre2_match(re, (PCRE2_SPTR)text, n, at, 0, md, NULL)) > 0) {
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            found++;
            for (int g = 0; g < rc; g++) {
                sum = (sum ^ (uint64_t)ov[2 * g]) * 0x100000001b3ull;
                sum = (sum ^ (uint64_t)ov[2 * g + 1]) * 0x100000001b3ull;
            }
            at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
        }
        if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
            fprintf(stderr, "pcre2: pattern %zu: match error %d\n", p, rc);
            return 1;
        }
        matches[p] = found;
        pcre2_match_data_free(md);
        pcre2_code_free(re);
    }
    uint64_t t1 = wm_now_ns();

    char version[32];
    pcre2_config(PCRE2_CONFIG_VERSION, version);
    printf("pcre2 %s\n", version);
    printf("text %zu bytes\n", n);
    for (size_t p = 0; p < count; p++) printf("pattern %zu: %ld matches\n", p, matches[p]);
    printf("checksum %016llx\n", (unsigned long long)sum);
    wm_report(t1 - t0);
    return wm_finish();
}
