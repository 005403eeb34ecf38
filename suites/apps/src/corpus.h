/* corpus.h - generated text for the `apps` suite's compressors and regex driver: log-like
 * lines of words, numbers, dates and addresses from a fixed seed, so that they compress
 * and match like text does, and are the same bytes on every runtime. */
#ifndef WASMETER_APPS_CORPUS_H
#define WASMETER_APPS_CORPUS_H
#include "common.h"

static const char *const CORPUS_WORDS[] = {
    "request", "served", "from", "cache", "upstream", "timeout", "retry", "user",
    "session", "opened", "closed", "the", "a", "of", "error", "warning",
    "module", "compiled", "instance", "memory", "grew", "to", "pages", "and",
    "handler", "returned", "status", "bytes", "latency", "queue", "worker", "idle"};
static const char *const CORPUS_HOSTS[] = {"example.com", "mail.example.org", "wasm.dev",
                                           "edge.example.net"};

/* Fills buf with n bytes of text (no NUL inside) and NUL-terminates it at n. */
static inline void corpus_make(char *buf, size_t n, uint64_t seed) {
    size_t at = 0;
    uint64_t s = seed;
    char line[256];
    while (at < n) {
        uint64_t r = wm_rand64(&s);
        int len = snprintf(line, sizeof line, "2026-%02u-%02u %02u:%02u:%02u ",
                           (unsigned)(1 + r % 12), (unsigned)(1 + (r >> 8) % 28),
                           (unsigned)((r >> 16) % 24), (unsigned)((r >> 24) % 60),
                           (unsigned)((r >> 32) % 60));
        int words = 4 + (int)((r >> 40) % 10);
        for (int w = 0; w < words && len < 200; w++) {
            uint64_t q = wm_rand64(&s);
            if (q % 11 == 0) {
                len += snprintf(line + len, sizeof line - (size_t)len, "%s%u@%s ",
                                CORPUS_WORDS[(q >> 8) % 32], (unsigned)((q >> 16) % 1000),
                                CORPUS_HOSTS[(q >> 32) % 4]);
            } else if (q % 7 == 0) {
                len += snprintf(line + len, sizeof line - (size_t)len, "%u ",
                                (unsigned)((q >> 8) % 100000));
            } else {
                len += snprintf(line + len, sizeof line - (size_t)len, "%s ",
                                CORPUS_WORDS[(q >> 8) % 32]);
            }
        }
        line[len - 1] = '\n';
        for (int i = 0; i < len && at < n; i++) buf[at++] = line[i];
    }
    buf[n] = '\0';
}
#endif /* WASMETER_APPS_CORPUS_H */
