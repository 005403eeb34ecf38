/* memhard - scrypt (RFC 7914) with N=4096, r=8, p=1: a 4 MiB table of
 * Salsa20/8 BlockMix outputs, then N data-dependent random reads.  Each
 * round's output is the next round's password.  Prints the last key. */
#include "common.h"

/* ---- SHA-256, HMAC, PBKDF2 (only the scrypt wrapper needs them) ---- */

typedef struct {
    uint32_t h[8];
    uint64_t total;
    uint8_t buf[64];
    size_t fill;
} sha256_ctx;

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define ROL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static uint32_t load32_be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store32_be(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void sha256_block(uint32_t st[8], const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = load32_be(p + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR32(w[i - 15], 7) ^ ROR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR32(w[i - 2], 17) ^ ROR32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25)) + ((e & f) ^ (~e & g)) +
                      K256[i] + w[i];
        uint32_t t2 = (ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d;
    st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

static void sha256_init(sha256_ctx *c) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->total = 0;
    c->fill = 0;
}

static void sha256_update(sha256_ctx *c, const uint8_t *p, size_t n) {
    c->total += n;
    while (n > 0) {
        size_t take = 64 - c->fill;
        if (take > n) take = n;
        memcpy(c->buf + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
        if (c->fill == 64) {
            sha256_block(c->h, c->buf);
            c->fill = 0;
        }
    }
}

static void sha256_final(sha256_ctx *c, uint8_t out[32]) {
    uint64_t bits = c->total * 8;
    c->buf[c->fill++] = 0x80;
    if (c->fill > 56) {
        memset(c->buf + c->fill, 0, 64 - c->fill);
        sha256_block(c->h, c->buf);
        c->fill = 0;
    }
    memset(c->buf + c->fill, 0, 56 - c->fill);
    for (int i = 0; i < 8; i++) c->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_block(c->h, c->buf);
    for (int i = 0; i < 8; i++) store32_be(out + 4 * i, c->h[i]);
}

typedef struct {
    sha256_ctx inner, outer;
} hmac_ctx;

static void hmac_init(hmac_ctx *h, const uint8_t *key, size_t keylen) {
    uint8_t k[64], pad[64];
    memset(k, 0, 64);
    if (keylen > 64) {
        sha256_ctx c;
        sha256_init(&c);
        sha256_update(&c, key, keylen);
        sha256_final(&c, k);
    } else {
        memcpy(k, key, keylen);
    }
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    sha256_init(&h->inner);
    sha256_update(&h->inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    sha256_init(&h->outer);
    sha256_update(&h->outer, pad, 64);
}

static void hmac_final(hmac_ctx *h, uint8_t out[32]) {
    uint8_t ih[32];
    sha256_final(&h->inner, ih);
    sha256_update(&h->outer, ih, 32);
    sha256_final(&h->outer, out);
}

/* PBKDF2-HMAC-SHA256 with one iteration (all that scrypt uses). */
static void pbkdf2_1(const uint8_t *pw, size_t pwlen, const uint8_t *salt, size_t saltlen,
                     uint8_t *out, size_t outlen) {
    hmac_ctx base;
    hmac_init(&base, pw, pwlen);
    for (uint32_t block = 1; outlen > 0; block++) {
        hmac_ctx h = base;
        uint8_t ctr[4], t[32];
        store32_be(ctr, block);
        sha256_update(&h.inner, salt, saltlen);
        sha256_update(&h.inner, ctr, 4);
        hmac_final(&h, t);
        size_t k = outlen < 32 ? outlen : 32;
        memcpy(out, t, k);
        out += k;
        outlen -= k;
    }
}

/* ---- scrypt core ---- */

static void salsa20_8(uint32_t b[16]) {
    uint32_t x[16];
    memcpy(x, b, sizeof x);
    for (int i = 0; i < 8; i += 2) {
        x[4] ^= ROL32(x[0] + x[12], 7);   x[8] ^= ROL32(x[4] + x[0], 9);
        x[12] ^= ROL32(x[8] + x[4], 13);  x[0] ^= ROL32(x[12] + x[8], 18);
        x[9] ^= ROL32(x[5] + x[1], 7);    x[13] ^= ROL32(x[9] + x[5], 9);
        x[1] ^= ROL32(x[13] + x[9], 13);  x[5] ^= ROL32(x[1] + x[13], 18);
        x[14] ^= ROL32(x[10] + x[6], 7);  x[2] ^= ROL32(x[14] + x[10], 9);
        x[6] ^= ROL32(x[2] + x[14], 13);  x[10] ^= ROL32(x[6] + x[2], 18);
        x[3] ^= ROL32(x[15] + x[11], 7);  x[7] ^= ROL32(x[3] + x[15], 9);
        x[11] ^= ROL32(x[7] + x[3], 13);  x[15] ^= ROL32(x[11] + x[7], 18);
        x[1] ^= ROL32(x[0] + x[3], 7);    x[2] ^= ROL32(x[1] + x[0], 9);
        x[3] ^= ROL32(x[2] + x[1], 13);   x[0] ^= ROL32(x[3] + x[2], 18);
        x[6] ^= ROL32(x[5] + x[4], 7);    x[7] ^= ROL32(x[6] + x[5], 9);
        x[4] ^= ROL32(x[7] + x[6], 13);   x[5] ^= ROL32(x[4] + x[7], 18);
        x[11] ^= ROL32(x[10] + x[9], 7);  x[8] ^= ROL32(x[11] + x[10], 9);
        x[9] ^= ROL32(x[8] + x[11], 13);  x[10] ^= ROL32(x[9] + x[8], 18);
        x[12] ^= ROL32(x[15] + x[14], 7); x[13] ^= ROL32(x[12] + x[15], 9);
        x[14] ^= ROL32(x[13] + x[12], 13); x[15] ^= ROL32(x[14] + x[13], 18);
    }
    for (int i = 0; i < 16; i++) b[i] += x[i];
}

/* BlockMix: in and out are 2r blocks of 16 words; y gets the result. */
static void blockmix(const uint32_t *in, uint32_t *out, size_t r) {
    uint32_t x[16];
    memcpy(x, in + (2 * r - 1) * 16, 64);
    for (size_t i = 0; i < 2 * r; i++) {
        for (int k = 0; k < 16; k++) x[k] ^= in[i * 16 + k];
        salsa20_8(x);
        /* even blocks go to the first half, odd ones to the second */
        memcpy(out + ((i & 1) * r + i / 2) * 16, x, 64);
    }
}

static void romix(uint8_t *b, size_t r, uint32_t n, uint32_t *v, uint32_t *x, uint32_t *y) {
    size_t words = 32 * r;
    for (size_t k = 0; k < words; k++) x[k] = wm_load32_le(b + 4 * k);
    for (uint32_t i = 0; i < n; i++) {
        memcpy(v + (size_t)i * words, x, words * 4);
        blockmix(x, y, r);
        memcpy(x, y, words * 4);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = x[(2 * r - 1) * 16] & (n - 1);
        const uint32_t *vj = v + (size_t)j * words;
        for (size_t k = 0; k < words; k++) x[k] ^= vj[k];
        blockmix(x, y, r);
        memcpy(x, y, words * 4);
    }
    for (size_t k = 0; k < words; k++) wm_store32_le(b + 4 * k, x[k]);
}

static void scrypt(const uint8_t *pw, size_t pwlen, const uint8_t *salt, size_t saltlen,
                   uint32_t n, uint32_t r, uint32_t p, uint8_t *out, size_t outlen) {
    size_t blen = (size_t)128 * r * p;
    uint8_t *b = wm_alloc(blen);
    uint32_t *v = wm_alloc((size_t)128 * r * n);
    uint32_t *x = wm_alloc((size_t)128 * r);
    uint32_t *y = wm_alloc((size_t)128 * r);
    pbkdf2_1(pw, pwlen, salt, saltlen, b, blen);
    for (uint32_t i = 0; i < p; i++) romix(b + (size_t)128 * r * i, r, n, v, x, y);
    pbkdf2_1(pw, pwlen, b, blen, out, outlen);
    free(y);
    free(x);
    free(v);
    free(b);
}

static int selftest(void) {
    uint8_t out[64];
    /* RFC 7914 section 12, first two vectors. */
    scrypt((const uint8_t *)"", 0, (const uint8_t *)"", 0, 16, 1, 1, out, 64);
    if (!wm_eq_hex(out, 64,
                   "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                   "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"))
        return 0;
    scrypt((const uint8_t *)"password", 8, (const uint8_t *)"NaCl", 4, 1024, 8, 16, out, 64);
    return wm_eq_hex(out, 64,
                     "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                     "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640");
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 220 : 12;
    wm_selftest(selftest());

    uint8_t key[32];
    memcpy(key, "wasmeter compute memhard 0000000", 32);
    static const uint8_t salt[] = "wasmeter salt";

    uint64_t t0 = wm_now_ns();
    for (unsigned i = 0; i < rounds; i++) {
        uint8_t next[32];
        scrypt(key, 32, salt, sizeof salt - 1, 4096, 8, 1, next, 32);
        memcpy(key, next, 32);
    }
    uint64_t t1 = wm_now_ns();

    printf("scrypt N=4096 r=8 p=1, rounds %u\n", rounds);
    wm_print_hex("key", key, 32);
    wm_report(t1 - t0);
    return wm_finish();
}
