/* x25519 - X25519 (RFC 7748): Montgomery ladder over GF(2^255-19) with five
 * 51-bit limbs and 128-bit products.  Runs the RFC's iterated test
 * (k = X25519(k, u); u = old k) for a number of iterations. */
#include "common.h"

typedef uint64_t fe[5];
typedef unsigned __int128 u128;

#define MASK51 0x7ffffffffffffull

static void fe_frombytes(fe h, const uint8_t s[32]) {
    uint64_t w0 = wm_load64_le(s), w1 = wm_load64_le(s + 8);
    uint64_t w2 = wm_load64_le(s + 16), w3 = wm_load64_le(s + 24);
    h[0] = w0 & MASK51;
    h[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    h[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    h[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    h[4] = (w3 >> 12) & MASK51; /* drops the top bit, as RFC 7748 asks */
}

static void fe_carry_wrap(uint64_t t[5]) {
    t[1] += t[0] >> 51; t[0] &= MASK51;
    t[2] += t[1] >> 51; t[1] &= MASK51;
    t[3] += t[2] >> 51; t[2] &= MASK51;
    t[4] += t[3] >> 51; t[3] &= MASK51;
    t[0] += 19 * (t[4] >> 51); t[4] &= MASK51;
}

static void fe_tobytes(uint8_t s[32], const fe h) {
    uint64_t t[5] = {h[0], h[1], h[2], h[3], h[4]};
    fe_carry_wrap(t);
    fe_carry_wrap(t);
    /* now 0 <= t < 2^255; make it canonical (subtract p when t >= p) */
    t[0] += 19;
    fe_carry_wrap(t);
    t[0] += 0x8000000000000ull - 19;
    t[1] += 0x8000000000000ull - 1;
    t[2] += 0x8000000000000ull - 1;
    t[3] += 0x8000000000000ull - 1;
    t[4] += 0x8000000000000ull - 1;
    t[1] += t[0] >> 51; t[0] &= MASK51;
    t[2] += t[1] >> 51; t[1] &= MASK51;
    t[3] += t[2] >> 51; t[2] &= MASK51;
    t[4] += t[3] >> 51; t[3] &= MASK51;
    t[4] &= MASK51;
    wm_store64_le(s + 0, t[0] | (t[1] << 51));
    wm_store64_le(s + 8, (t[1] >> 13) | (t[2] << 38));
    wm_store64_le(s + 16, (t[2] >> 26) | (t[3] << 25));
    wm_store64_le(s + 24, (t[3] >> 39) | (t[4] << 12));
}

static void fe_add(fe h, const fe f, const fe g) {
    for (int i = 0; i < 5; i++) h[i] = f[i] + g[i];
}

/* h = f - g + 2p, for reduced-ish g (limbs below 2^52). */
static void fe_sub(fe h, const fe f, const fe g) {
    h[0] = f[0] + 0xfffffffffffdaull - g[0];
    h[1] = f[1] + 0xffffffffffffeull - g[1];
    h[2] = f[2] + 0xffffffffffffeull - g[2];
    h[3] = f[3] + 0xffffffffffffeull - g[3];
    h[4] = f[4] + 0xffffffffffffeull - g[4];
}

static void fe_reduce128(fe h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4) {
    uint64_t c;
    r1 += (uint64_t)(r0 >> 51); uint64_t h0 = (uint64_t)r0 & MASK51;
    r2 += (uint64_t)(r1 >> 51); uint64_t h1 = (uint64_t)r1 & MASK51;
    r3 += (uint64_t)(r2 >> 51); uint64_t h2 = (uint64_t)r2 & MASK51;
    r4 += (uint64_t)(r3 >> 51); uint64_t h3 = (uint64_t)r3 & MASK51;
    c = (uint64_t)(r4 >> 51); uint64_t h4 = (uint64_t)r4 & MASK51;
    h0 += c * 19;
    h1 += h0 >> 51; h0 &= MASK51;
    h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4;
}

static void fe_mul(fe h, const fe f, const fe g) {
    uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    uint64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4;
    u128 r0 = (u128)f0 * g0 + (u128)f1 * g4_19 + (u128)f2 * g3_19 + (u128)f3 * g2_19 + (u128)f4 * g1_19;
    u128 r1 = (u128)f0 * g1 + (u128)f1 * g0 + (u128)f2 * g4_19 + (u128)f3 * g3_19 + (u128)f4 * g2_19;
    u128 r2 = (u128)f0 * g2 + (u128)f1 * g1 + (u128)f2 * g0 + (u128)f3 * g4_19 + (u128)f4 * g3_19;
    u128 r3 = (u128)f0 * g3 + (u128)f1 * g2 + (u128)f2 * g1 + (u128)f3 * g0 + (u128)f4 * g4_19;
    u128 r4 = (u128)f0 * g4 + (u128)f1 * g3 + (u128)f2 * g2 + (u128)f3 * g1 + (u128)f4 * g0;
    fe_reduce128(h, r0, r1, r2, r3, r4);
}

static void fe_sq(fe h, const fe f) {
    uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
    uint64_t f1_38 = 38 * f1, f2_38 = 38 * f2, f3_38 = 38 * f3;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4;
    u128 r0 = (u128)f0 * f0 + (u128)f1_38 * f4 + (u128)f2_38 * f3;
    u128 r1 = (u128)f0_2 * f1 + (u128)f2_38 * f4 + (u128)f3_19 * f3;
    u128 r2 = (u128)f0_2 * f2 + (u128)f1 * f1 + (u128)f3_38 * f4;
    u128 r3 = (u128)f0_2 * f3 + (u128)f1_2 * f2 + (u128)f4_19 * f4;
    u128 r4 = (u128)f0_2 * f4 + (u128)f1_2 * f3 + (u128)f2 * f2;
    fe_reduce128(h, r0, r1, r2, r3, r4);
}

static void fe_sqn(fe h, const fe f, int n) {
    fe_sq(h, f);
    for (int i = 1; i < n; i++) fe_sq(h, h);
}

static void fe_mul121665(fe h, const fe f) {
    fe_reduce128(h, (u128)f[0] * 121665, (u128)f[1] * 121665, (u128)f[2] * 121665,
                 (u128)f[3] * 121665, (u128)f[4] * 121665);
}

/* h = z^(p-2) = 1/z */
static void fe_invert(fe out, const fe z) {
    fe z2, z9, z11, z2_5_0, z2_10_0, z2_20_0, z2_50_0, z2_100_0, t;
    fe_sq(z2, z);
    fe_sqn(t, z2, 2);
    fe_mul(z9, t, z);
    fe_mul(z11, z9, z2);
    fe_sq(t, z11);
    fe_mul(z2_5_0, t, z9);
    fe_sqn(t, z2_5_0, 5);
    fe_mul(z2_10_0, t, z2_5_0);
    fe_sqn(t, z2_10_0, 10);
    fe_mul(z2_20_0, t, z2_10_0);
    fe_sqn(t, z2_20_0, 20);
    fe_mul(t, t, z2_20_0);
    fe_sqn(t, t, 10);
    fe_mul(z2_50_0, t, z2_10_0);
    fe_sqn(t, z2_50_0, 50);
    fe_mul(z2_100_0, t, z2_50_0);
    fe_sqn(t, z2_100_0, 100);
    fe_mul(t, t, z2_100_0);
    fe_sqn(t, t, 50);
    fe_mul(t, t, z2_50_0);
    fe_sqn(t, t, 5);
    fe_mul(out, t, z11);
}

static void fe_cswap(fe f, fe g, uint64_t b) {
    uint64_t mask = (uint64_t)0 - b;
    for (int i = 0; i < 5; i++) {
        uint64_t x = mask & (f[i] ^ g[i]);
        f[i] ^= x;
        g[i] ^= x;
    }
}

static void x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t point[32]) {
    uint8_t e[32];
    memcpy(e, scalar, 32);
    e[0] &= 248;
    e[31] &= 127;
    e[31] |= 64;
    fe x1, x2 = {1, 0, 0, 0, 0}, z2 = {0}, x3, z3 = {1, 0, 0, 0, 0};
    fe A, AA, B, BB, E, C, D, DA, CB, t;
    fe_frombytes(x1, point);
    memcpy(x3, x1, sizeof(fe));
    uint64_t swap = 0;
    for (int pos = 254; pos >= 0; pos--) {
        uint64_t bit = (e[pos >> 3] >> (pos & 7)) & 1;
        swap ^= bit;
        fe_cswap(x2, x3, swap);
        fe_cswap(z2, z3, swap);
        swap = bit;
        fe_add(A, x2, z2);
        fe_sub(B, x2, z2);
        fe_add(C, x3, z3);
        fe_sub(D, x3, z3);
        fe_sq(AA, A);
        fe_sq(BB, B);
        fe_mul(DA, D, A);
        fe_mul(CB, C, B);
        fe_sub(E, AA, BB);
        fe_add(t, DA, CB);
        fe_sq(x3, t);
        fe_sub(t, DA, CB);
        fe_sq(t, t);
        fe_mul(z3, x1, t);
        fe_mul(x2, AA, BB);
        fe_mul121665(t, E);
        fe_add(t, t, AA);
        fe_mul(z2, E, t);
    }
    fe_cswap(x2, x3, swap);
    fe_cswap(z2, z3, swap);
    fe_invert(z2, z2);
    fe_mul(x2, x2, z2);
    fe_tobytes(out, x2);
}

static int selftest(void) {
    uint8_t k[32], u[32], r[32];
    /* RFC 7748 section 5.2, first vector. */
    wm_from_hex(k, "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4", 32);
    wm_from_hex(u, "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c", 32);
    x25519(r, k, u);
    if (!wm_eq_hex(r, 32, "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"))
        return 0;
    /* Second vector: u has its top bit set, which must be ignored. */
    wm_from_hex(k, "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d", 32);
    wm_from_hex(u, "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493", 32);
    x25519(r, k, u);
    if (!wm_eq_hex(r, 32, "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"))
        return 0;
    /* Section 5.2 iterated test, after one iteration. */
    memset(k, 0, 32);
    k[0] = 9;
    x25519(r, k, k);
    return wm_eq_hex(r, 32, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned iterations = full ? 45000 : 2000;
    wm_selftest(selftest());

    uint8_t k[32] = {9}, u[32] = {9}, r[32], at1000[32];

    uint64_t t0 = wm_now_ns();
    for (unsigned i = 0; i < iterations; i++) {
        x25519(r, k, u);
        memcpy(u, k, 32);
        memcpy(k, r, 32);
        if (i == 999) memcpy(at1000, k, 32);
    }
    uint64_t t1 = wm_now_ns();

    /* RFC 7748 section 5.2: the value after 1,000 iterations. */
    printf("after 1000 iterations: %s\n",
           wm_eq_hex(at1000, 32, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
               ? "ok"
               : "FAILED");
    printf("iterations %u\n", iterations);
    wm_print_hex("x25519", k, 32);
    wm_report(t1 - t0);
    return wm_finish();
}
