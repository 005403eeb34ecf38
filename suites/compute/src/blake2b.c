/* blake2b - BLAKE2b-512 (RFC 7693) over a 1 MiB buffer, repeated.
 * Each round hashes the whole buffer and writes the digest back into its
 * first 64 bytes, so the rounds form a chain.  Prints the last digest. */
#include "common.h"

#define BUF_SIZE (1u << 20)

typedef struct {
    uint64_t h[8];
    uint64_t t[2];
    uint8_t buf[128];
    size_t fill;
    size_t outlen;
} blake2b_ctx;

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

#define G(a, b, c, d, x, y)          \
    do {                             \
        a = a + b + (x);             \
        d = ROR64(d ^ a, 32);        \
        c = c + d;                   \
        b = ROR64(b ^ c, 24);        \
        a = a + b + (y);             \
        d = ROR64(d ^ a, 16);        \
        c = c + d;                   \
        b = ROR64(b ^ c, 63);        \
    } while (0)

static void blake2b_compress(blake2b_ctx *c, const uint8_t *block, int last) {
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) m[i] = wm_load64_le(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = c->h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= c->t[0];
    v[13] ^= c->t[1];
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) c->h[i] ^= v[i] ^ v[i + 8];
}

static void add_counter(blake2b_ctx *c, uint64_t n) {
    c->t[0] += n;
    if (c->t[0] < n) c->t[1]++;
}

static void blake2b_init(blake2b_ctx *c, size_t outlen) {
    memcpy(c->h, IV, sizeof IV);
    c->h[0] ^= 0x01010000ull ^ (uint64_t)outlen;
    c->t[0] = c->t[1] = 0;
    c->fill = 0;
    c->outlen = outlen;
}

/* The last block must be compressed by final(), so a full buffer is kept
 * until more input arrives. */
static void blake2b_update(blake2b_ctx *c, const uint8_t *p, size_t n) {
    while (n > 0) {
        if (c->fill == 128) {
            add_counter(c, 128);
            blake2b_compress(c, c->buf, 0);
            c->fill = 0;
        }
        if (c->fill == 0) {
            while (n > 128) {
                add_counter(c, 128);
                blake2b_compress(c, p, 0);
                p += 128;
                n -= 128;
            }
        }
        size_t take = 128 - c->fill;
        if (take > n) take = n;
        memcpy(c->buf + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
    }
}

static void blake2b_final(blake2b_ctx *c, uint8_t *out) {
    add_counter(c, c->fill);
    memset(c->buf + c->fill, 0, 128 - c->fill);
    blake2b_compress(c, c->buf, 1);
    uint8_t full[64];
    for (int i = 0; i < 8; i++) wm_store64_le(full + 8 * i, c->h[i]);
    memcpy(out, full, c->outlen);
}

static void blake2b(const uint8_t *p, size_t n, uint8_t *out, size_t outlen) {
    blake2b_ctx c;
    blake2b_init(&c, outlen);
    blake2b_update(&c, p, n);
    blake2b_final(&c, out);
}

static int selftest(void) {
    uint8_t d[64];
    blake2b((const uint8_t *)"abc", 3, d, 64);
    if (!wm_eq_hex(d, 64,
                   "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                   "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"))
        return 0;
    blake2b((const uint8_t *)"", 0, d, 64);
    return wm_eq_hex(d, 64,
                     "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
                     "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 1600 : 64;
    wm_selftest(selftest());

    uint8_t *buf = wm_alloc(BUF_SIZE);
    wm_fill(buf, BUF_SIZE, 2);
    uint8_t digest[64];

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        blake2b(buf, BUF_SIZE, digest, 64);
        memcpy(buf, digest, 64);
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u bytes\n", rounds, BUF_SIZE);
    wm_print_hex("blake2b", digest, 64);
    wm_report(t1 - t0);
    free(buf);
    return wm_finish();
}
