/* lz - an LZ77 compressor (hash chains, 64 KiB window, LZ4-like sequence
 * format) and its decompressor: round trip of 1 MiB of generated,
 * semi-repetitive text, repeated; each round changes one input byte.
 * Prints the compressed size and a checksum of the compressed stream. */
#include "common.h"

#define TEXT_SIZE (1u << 20)
#define MINMATCH 4
#define WINDOW (1u << 16) /* offsets are 16-bit: 1..65535 */
#define WMASK (WINDOW - 1)
#define HASH_BITS 15
#define MAX_CHAIN 24

/* ---- generated text ---- */

static void make_text(uint8_t *text, size_t n, uint64_t seed) {
    enum { VOCAB = 600 };
    static char words[VOCAB][12];
    uint64_t s = seed;
    for (int w = 0; w < VOCAB; w++) {
        int len = 2 + (int)(wm_rand64(&s) % 9);
        for (int k = 0; k < len; k++) words[w][k] = (char)('a' + wm_rand64(&s) % 26);
        words[w][len] = 0;
    }
    size_t pos = 0;
    while (pos < n) {
        int nwords = 4 + (int)(wm_rand64(&s) % 12);
        for (int k = 0; k < nwords && pos < n; k++) {
            uint64_t v = wm_rand64(&s);
            /* product of two uniforms: small indices are much more common */
            int w = (int)(((v & 0xffff) % VOCAB) * ((v >> 16 & 0xffff) % VOCAB) / VOCAB);
            const char *word = words[w];
            for (int c = 0; word[c] && pos < n; c++) {
                char ch = word[c];
                if (k == 0 && c == 0) ch = (char)(ch - 'a' + 'A');
                text[pos++] = (uint8_t)ch;
            }
            if (pos < n) text[pos++] = k + 1 < nwords ? ' ' : '.';
        }
        if (pos < n) text[pos++] = (wm_rand64(&s) % 5 == 0) ? '\n' : ' ';
    }
}

/* ---- compressor ---- */

static uint32_t hash4(const uint8_t *p) {
    return (wm_load32_le(p) * 2654435761u) >> (32 - HASH_BITS);
}

static uint8_t *put_len(uint8_t *o, size_t len) {
    while (len >= 255) {
        *o++ = 255;
        len -= 255;
    }
    *o++ = (uint8_t)len;
    return o;
}

/* One sequence: literals, then a match (mlen == 0: the last sequence). */
static uint8_t *emit(uint8_t *o, const uint8_t *lit, size_t nlit, size_t off, size_t mlen) {
    uint8_t *token = o++;
    uint8_t t = (uint8_t)((nlit >= 15 ? 15 : nlit) << 4);
    if (nlit >= 15) o = put_len(o, nlit - 15);
    memcpy(o, lit, nlit);
    o += nlit;
    if (mlen > 0) {
        *o++ = (uint8_t)off;
        *o++ = (uint8_t)(off >> 8);
        size_t ml = mlen - MINMATCH;
        t |= (uint8_t)(ml >= 15 ? 15 : ml);
        if (ml >= 15) o = put_len(o, ml - 15);
    }
    *token = t;
    return o;
}

static size_t lz_bound(size_t n) { return n + n / 255 + 16; }

static size_t lz_compress(const uint8_t *in, size_t n, uint8_t *out, int32_t *head, int32_t *prev) {
    for (size_t h = 0; h < (1u << HASH_BITS); h++) head[h] = -1;
    uint8_t *o = out;
    size_t i = 0, anchor = 0;
    while (i + MINMATCH <= n) {
        uint32_t h = hash4(in + i);
        int32_t cand = head[h];
        size_t best_len = 0, best_off = 0, maxlen = n - i;
        int chain = MAX_CHAIN;
        while (cand >= 0 && i - (size_t)cand < WINDOW && chain-- > 0) {
            const uint8_t *p = in + cand;
            if (p[best_len] == in[i + best_len]) {
                size_t l = 0;
                while (l < maxlen && p[l] == in[i + l]) l++;
                if (l > best_len) {
                    best_len = l;
                    best_off = i - (size_t)cand;
                    if (l == maxlen) break;
                }
            }
            cand = prev[cand & WMASK];
        }
        prev[i & WMASK] = head[h];
        head[h] = (int32_t)i;
        if (best_len >= MINMATCH) {
            o = emit(o, in + anchor, i - anchor, best_off, best_len);
            size_t end = i + best_len;
            for (size_t k = i + 1; k < end && k + MINMATCH <= n; k++) {
                uint32_t hk = hash4(in + k);
                prev[k & WMASK] = head[hk];
                head[hk] = (int32_t)k;
            }
            i = end;
            anchor = i;
        } else {
            i++;
        }
    }
    o = emit(o, in + anchor, n - anchor, 0, 0);
    return (size_t)(o - out);
}

/* Returns the decompressed size, or (size_t)-1 on a malformed stream. */
static size_t lz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    size_t ip = 0, op = 0;
    while (ip < n) {
        uint8_t t = in[ip++];
        size_t nlit = t >> 4;
        if (nlit == 15) {
            uint8_t b;
            do {
                if (ip >= n) return (size_t)-1;
                b = in[ip++];
                nlit += b;
            } while (b == 255);
        }
        if (nlit > n - ip || nlit > cap - op) return (size_t)-1;
        memcpy(out + op, in + ip, nlit);
        ip += nlit;
        op += nlit;
        if (ip == n) break; /* last sequence: literals only */
        if (n - ip < 2) return (size_t)-1;
        size_t off = (size_t)in[ip] | ((size_t)in[ip + 1] << 8);
        ip += 2;
        size_t mlen = t & 15;
        if (mlen == 15) {
            uint8_t b;
            do {
                if (ip >= n) return (size_t)-1;
                b = in[ip++];
                mlen += b;
            } while (b == 255);
        }
        mlen += MINMATCH;
        if (off == 0 || off > op || mlen > cap - op) return (size_t)-1;
        uint8_t *d = out + op;
        const uint8_t *s = d - off;
        for (size_t k = 0; k < mlen; k++) d[k] = s[k]; /* may overlap */
        op += mlen;
    }
    return op;
}

static int selftest(int32_t *head, int32_t *prev) {
    static const char *cases[] = {"", "a", "abcd", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                                  "abcabcabcabcabcabcabcabcabcXabcabcabc the end"};
    uint8_t out[256], back[256];
    for (int c = 0; c < 5; c++) {
        size_t n = strlen(cases[c]);
        size_t m = lz_compress((const uint8_t *)cases[c], n, out, head, prev);
        if (lz_decompress(out, m, back, sizeof back) != n || memcmp(back, cases[c], n) != 0) return 0;
    }
    /* a 41-byte run compresses to one literal and one overlapping match */
    if (lz_compress((const uint8_t *)cases[3], 41, out, head, prev) != 6) return 0;
    /* corrupt streams are rejected */
    uint8_t bad[] = {0x10, 'a', 0x05, 0x00};
    return lz_decompress(bad, sizeof bad, back, sizeof back) == (size_t)-1;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 110 : 6;
    int32_t *head = wm_alloc(sizeof(int32_t) << HASH_BITS);
    int32_t *prev = wm_alloc(sizeof(int32_t) * WINDOW);
    wm_selftest(selftest(head, prev));

    uint8_t *text = wm_alloc(TEXT_SIZE);
    uint8_t *comp = wm_alloc(lz_bound(TEXT_SIZE));
    uint8_t *back = wm_alloc(TEXT_SIZE);
    make_text(text, TEXT_SIZE, 11);
    size_t clen = 0, bad = 0;

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        text[(r * 7919u) % TEXT_SIZE] = (uint8_t)('a' + r % 26);
        clen = lz_compress(text, TEXT_SIZE, comp, head, prev);
        size_t dlen = lz_decompress(comp, clen, back, TEXT_SIZE);
        if (dlen != TEXT_SIZE || memcmp(back, text, TEXT_SIZE) != 0) bad++;
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u bytes\n", rounds, TEXT_SIZE);
    printf("compressed %zu bytes (%zu per mille), checksum %016llx\n", clen,
           clen * 1000 / TEXT_SIZE, (unsigned long long)wm_fnv64(comp, clen));
    printf("round trip %s\n", bad == 0 ? "ok" : "FAILED");
    wm_report(t1 - t0);
    free(back);
    free(comp);
    free(text);
    free(prev);
    free(head);
    return wm_finish();
}
