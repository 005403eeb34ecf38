/* sha256.h - what both gateway guests (gateway.c, the WASI command, and gateway-http.c, the
 * wasi:http component) compute for `compute`: SHA-256 of short messages, and the decimal
 * and printable helpers of their one-line reasons. Static functions, included once per guest. */
#ifndef GATEWAY_SHA256_H
#define GATEWAY_SHA256_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- SHA-256 (FIPS 180-4), the same round function as suites/compute/src/sha256.c -------- */

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

static uint32_t load32_be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void sha256_block(uint32_t st[8], const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = load32_be(p + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR32(w[i - 15], 7) ^ ROR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR32(w[i - 2], 17) ^ ROR32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25)) + ((e & f) ^ (~e & g)) +
                      K256[i] + w[i];
        uint32_t t2 = (ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
    st[5] += f;
    st[6] += g;
    st[7] += h;
}

/* One-shot SHA-256 of a short message (at most 55 bytes: one padded block). */
static void sha256_short(const uint8_t *p, size_t n, uint8_t out[32]) {
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint8_t block[64] = {0};
    memcpy(block, p, n);
    block[n] = 0x80;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++) block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_block(st, block);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(st[i] >> 24);
        out[4 * i + 1] = (uint8_t)(st[i] >> 16);
        out[4 * i + 2] = (uint8_t)(st[i] >> 8);
        out[4 * i + 3] = (uint8_t)st[i];
    }
}

/* The `compute` answer: d = SHA-256("wasmeter"), then n times d = SHA-256(d), as 64 lowercase
 * hex digits and a newline (65 bytes, no NUL). */
static void compute_hex(uint64_t n, char hex[65]) {
    static const char hexdig[] = "0123456789abcdef";
    uint8_t d[32];
    sha256_short((const uint8_t *)"wasmeter", 8, d);
    for (uint64_t i = 0; i < n; i++) sha256_short(d, 32, d);
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = hexdig[d[i] >> 4];
        hex[2 * i + 1] = hexdig[d[i] & 15];
    }
    hex[64] = '\n';
}

/* `s` made safe for a one-line reason: at most 64 bytes, non-printable bytes as '?'. */
static const char *printable(const char *s) {
    static char buf[68];
    size_t i = 0;
    for (; s[i] && i < 64; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[i] = (c >= 0x20 && c < 0x7f && c != '\'') ? (char)c : '?';
    }
    if (s[i]) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = 0;
    return buf;
}

/* A decimal integer of 1..max_digits ASCII digits (no sign, no spaces) into *out. */
static int parse_u64(const char *s, int max_digits, uint64_t *out) {
    uint64_t v = 0;
    int n = 0;
    if (s == NULL || *s == 0) return 0;
    for (; *s; s++, n++) {
        if (*s < '0' || *s > '9' || n == max_digits) return 0;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 1;
}

#endif
