/* poly1305 - Poly1305 one-time authenticator (RFC 8439) over a 1 MiB buffer,
 * repeated; 26-bit limbs with 64-bit products.  The tag of each round keys
 * the next one.  Prints the last tag. */
#include "common.h"

#define BUF_SIZE (1u << 20)

typedef struct {
    uint32_t r[5], h[5], pad[4];
    uint8_t buf[16];
    size_t fill;
} poly1305_ctx;

static void poly1305_init(poly1305_ctx *c, const uint8_t key[32]) {
    c->r[0] = wm_load32_le(key + 0) & 0x3ffffff;
    c->r[1] = (wm_load32_le(key + 3) >> 2) & 0x3ffff03;
    c->r[2] = (wm_load32_le(key + 6) >> 4) & 0x3ffc0ff;
    c->r[3] = (wm_load32_le(key + 9) >> 6) & 0x3f03fff;
    c->r[4] = (wm_load32_le(key + 12) >> 8) & 0x00fffff;
    for (int i = 0; i < 5; i++) c->h[i] = 0;
    for (int i = 0; i < 4; i++) c->pad[i] = wm_load32_le(key + 16 + 4 * i);
    c->fill = 0;
}

static void poly1305_blocks(poly1305_ctx *c, const uint8_t *m, size_t n, uint32_t hibit) {
    const uint32_t r0 = c->r[0], r1 = c->r[1], r2 = c->r[2], r3 = c->r[3], r4 = c->r[4];
    const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
    uint32_t h0 = c->h[0], h1 = c->h[1], h2 = c->h[2], h3 = c->h[3], h4 = c->h[4];
    while (n >= 16) {
        h0 += wm_load32_le(m + 0) & 0x3ffffff;
        h1 += (wm_load32_le(m + 3) >> 2) & 0x3ffffff;
        h2 += (wm_load32_le(m + 6) >> 4) & 0x3ffffff;
        h3 += (wm_load32_le(m + 9) >> 6) & 0x3ffffff;
        h4 += (wm_load32_le(m + 12) >> 8) | hibit;

        uint64_t d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 +
                      (uint64_t)h3 * s2 + (uint64_t)h4 * s1;
        uint64_t d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 +
                      (uint64_t)h3 * s3 + (uint64_t)h4 * s2;
        uint64_t d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 +
                      (uint64_t)h3 * s4 + (uint64_t)h4 * s3;
        uint64_t d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 +
                      (uint64_t)h3 * r0 + (uint64_t)h4 * s4;
        uint64_t d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 +
                      (uint64_t)h3 * r1 + (uint64_t)h4 * r0;

        uint32_t carry;
        carry = (uint32_t)(d0 >> 26); h0 = (uint32_t)d0 & 0x3ffffff;
        d1 += carry; carry = (uint32_t)(d1 >> 26); h1 = (uint32_t)d1 & 0x3ffffff;
        d2 += carry; carry = (uint32_t)(d2 >> 26); h2 = (uint32_t)d2 & 0x3ffffff;
        d3 += carry; carry = (uint32_t)(d3 >> 26); h3 = (uint32_t)d3 & 0x3ffffff;
        d4 += carry; carry = (uint32_t)(d4 >> 26); h4 = (uint32_t)d4 & 0x3ffffff;
        h0 += carry * 5; carry = h0 >> 26; h0 &= 0x3ffffff;
        h1 += carry;

        m += 16;
        n -= 16;
    }
    c->h[0] = h0; c->h[1] = h1; c->h[2] = h2; c->h[3] = h3; c->h[4] = h4;
}

static void poly1305_update(poly1305_ctx *c, const uint8_t *m, size_t n) {
    if (c->fill > 0) {
        size_t take = 16 - c->fill;
        if (take > n) take = n;
        memcpy(c->buf + c->fill, m, take);
        c->fill += take;
        m += take;
        n -= take;
        if (c->fill < 16) return;
        poly1305_blocks(c, c->buf, 16, 1u << 24);
        c->fill = 0;
    }
    size_t whole = n & ~(size_t)15;
    poly1305_blocks(c, m, whole, 1u << 24);
    memcpy(c->buf, m + whole, n - whole);
    c->fill = n - whole;
}

static void poly1305_final(poly1305_ctx *c, uint8_t tag[16]) {
    if (c->fill > 0) {
        c->buf[c->fill] = 1;
        memset(c->buf + c->fill + 1, 0, 15 - c->fill);
        poly1305_blocks(c, c->buf, 16, 0);
    }
    uint32_t h0 = c->h[0], h1 = c->h[1], h2 = c->h[2], h3 = c->h[3], h4 = c->h[4], carry;
    carry = h1 >> 26; h1 &= 0x3ffffff;
    h2 += carry; carry = h2 >> 26; h2 &= 0x3ffffff;
    h3 += carry; carry = h3 >> 26; h3 &= 0x3ffffff;
    h4 += carry; carry = h4 >> 26; h4 &= 0x3ffffff;
    h0 += carry * 5; carry = h0 >> 26; h0 &= 0x3ffffff;
    h1 += carry;

    /* g = h + 5 - 2^130; use g when it does not go negative. */
    uint32_t g0 = h0 + 5; carry = g0 >> 26; g0 &= 0x3ffffff;
    uint32_t g1 = h1 + carry; carry = g1 >> 26; g1 &= 0x3ffffff;
    uint32_t g2 = h2 + carry; carry = g2 >> 26; g2 &= 0x3ffffff;
    uint32_t g3 = h3 + carry; carry = g3 >> 26; g3 &= 0x3ffffff;
    uint32_t g4 = h4 + carry - (1u << 26);
    uint32_t mask = (g4 >> 31) - 1; /* all ones when g >= 0 */
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);
    h3 = (h3 & ~mask) | (g3 & mask);
    h4 = (h4 & ~mask) | (g4 & mask);

    uint32_t w0 = h0 | (h1 << 26);
    uint32_t w1 = (h1 >> 6) | (h2 << 20);
    uint32_t w2 = (h2 >> 12) | (h3 << 14);
    uint32_t w3 = (h3 >> 18) | (h4 << 8);
    uint64_t f;
    f = (uint64_t)w0 + c->pad[0]; wm_store32_le(tag + 0, (uint32_t)f);
    f = (uint64_t)w1 + c->pad[1] + (f >> 32); wm_store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)w2 + c->pad[2] + (f >> 32); wm_store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)w3 + c->pad[3] + (f >> 32); wm_store32_le(tag + 12, (uint32_t)f);
}

static void poly1305(const uint8_t *m, size_t n, const uint8_t key[32], uint8_t tag[16]) {
    poly1305_ctx c;
    poly1305_init(&c, key);
    poly1305_update(&c, m, n);
    poly1305_final(&c, tag);
}

static int selftest(void) {
    /* RFC 8439 section 2.5.2. */
    uint8_t key[32], tag[16];
    wm_from_hex(key, "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b", 32);
    const char *msg = "Cryptographic Forum Research Group";
    poly1305((const uint8_t *)msg, strlen(msg), key, tag);
    if (!wm_eq_hex(tag, 16, "a8061dc1305136c6c22b8baf0c0127a9")) return 0;
    /* Edge case: all-ones key and message (exercises the final reduction);
     * tags computed independently with OpenSSL. */
    uint8_t k2[32], m2[1000];
    memset(k2, 0xff, sizeof k2);
    memset(m2, 0xff, sizeof m2);
    poly1305(m2, 17, k2, tag);
    if (!wm_eq_hex(tag, 16, "7cfe7ff768f81f2763f8bf565df85f86")) return 0;
    poly1305(m2, 1000, k2, tag);
    return wm_eq_hex(tag, 16, "de9406b10e7023bcd692ff687f4cbc7f");
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 3600 : 160;
    wm_selftest(selftest());

    uint8_t *buf = wm_alloc(BUF_SIZE);
    wm_fill(buf, BUF_SIZE, 5);
    uint8_t key[32], tag[16];
    wm_fill(key, 32, 6);

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        poly1305(buf, BUF_SIZE - r % 16, key, tag);
        memcpy(key, tag, 16);
        for (int i = 0; i < 16; i++) key[16 + i] ^= tag[i];
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of about %u bytes\n", rounds, BUF_SIZE);
    wm_print_hex("poly1305", tag, 16);
    wm_report(t1 - t0);
    free(buf);
    return wm_finish();
}
