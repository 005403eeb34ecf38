/* base64 - RFC 4648 base64 encode + decode round trip of 768 KiB of
 * pseudorandom bytes, repeated; each round changes one input byte.  Prints
 * the encoded length and a checksum of the last encoding. */
#include "common.h"

#define SRC_SIZE ((3u << 18) - 1) /* not a multiple of 3: exercises padding */

static const char ALPHABET[64] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static int8_t DECODE[256];

static void init_tables(void) {
    memset(DECODE, -1, sizeof DECODE);
    for (int i = 0; i < 64; i++) DECODE[(uint8_t)ALPHABET[i]] = (int8_t)i;
}

static size_t b64_encode(char *out, const uint8_t *in, size_t n) {
    char *o = out;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8) | in[i + 2];
        o[0] = ALPHABET[v >> 18];
        o[1] = ALPHABET[(v >> 12) & 63];
        o[2] = ALPHABET[(v >> 6) & 63];
        o[3] = ALPHABET[v & 63];
        o += 4;
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        o[0] = ALPHABET[v >> 18];
        o[1] = ALPHABET[(v >> 12) & 63];
        o[2] = '=';
        o[3] = '=';
        o += 4;
    } else if (n - i == 2) {
        uint32_t v = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8);
        o[0] = ALPHABET[v >> 18];
        o[1] = ALPHABET[(v >> 12) & 63];
        o[2] = ALPHABET[(v >> 6) & 63];
        o[3] = '=';
        o += 4;
    }
    return (size_t)(o - out);
}

/* Returns the decoded length, or (size_t)-1 on malformed input. */
static size_t b64_decode(uint8_t *out, const char *in, size_t n) {
    if (n % 4 != 0) return (size_t)-1;
    uint8_t *o = out;
    for (size_t i = 0; i < n; i += 4) {
        int a = DECODE[(uint8_t)in[i]], b = DECODE[(uint8_t)in[i + 1]];
        int c = DECODE[(uint8_t)in[i + 2]], d = DECODE[(uint8_t)in[i + 3]];
        if ((a | b | c | d) >= 0) {
            uint32_t v = ((uint32_t)a << 18) | ((uint32_t)b << 12) | ((uint32_t)c << 6) | (uint32_t)d;
            o[0] = (uint8_t)(v >> 16);
            o[1] = (uint8_t)(v >> 8);
            o[2] = (uint8_t)v;
            o += 3;
            continue;
        }
        /* only the last quantum may carry padding */
        if (i + 4 != n || a < 0 || b < 0) return (size_t)-1;
        if (in[i + 2] == '=' && in[i + 3] == '=') {
            *o++ = (uint8_t)((a << 2) | (b >> 4));
        } else if (c >= 0 && in[i + 3] == '=') {
            *o++ = (uint8_t)((a << 2) | (b >> 4));
            *o++ = (uint8_t)((b << 4) | (c >> 2));
        } else {
            return (size_t)-1;
        }
    }
    return (size_t)(o - out);
}

static int selftest(void) {
    /* RFC 4648 section 10. */
    static const char *plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    char enc[16];
    uint8_t dec[16];
    for (int i = 0; i < 7; i++) {
        size_t n = b64_encode(enc, (const uint8_t *)plain[i], strlen(plain[i]));
        if (n != strlen(coded[i]) || memcmp(enc, coded[i], n) != 0) return 0;
        size_t m = b64_decode(dec, coded[i], n);
        if (m != strlen(plain[i]) || memcmp(dec, plain[i], m) != 0) return 0;
    }
    return b64_decode(dec, "Zm9v!A==", 8) == (size_t)-1 && b64_decode(dec, "Zg=a", 4) == (size_t)-1;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 2400 : 128;
    init_tables();
    wm_selftest(selftest());

    uint8_t *src = wm_alloc(SRC_SIZE);
    uint8_t *dec = wm_alloc(SRC_SIZE);
    size_t enc_cap = (SRC_SIZE + 2) / 3 * 4;
    char *enc = wm_alloc(enc_cap);
    wm_fill(src, SRC_SIZE, 7);
    size_t elen = 0, mismatches = 0;

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        elen = b64_encode(enc, src, SRC_SIZE);
        size_t dlen = b64_decode(dec, enc, elen);
        if (dlen != SRC_SIZE || memcmp(dec, src, SRC_SIZE) != 0) mismatches++;
        src[(r * 7919u) % SRC_SIZE] ^= (uint8_t)enc[(r * 104729u) % elen];
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u bytes\n", rounds, SRC_SIZE);
    printf("encoded %zu chars, checksum %016llx\n", elen, (unsigned long long)wm_fnv64(enc, elen));
    printf("round trip %s\n", mismatches == 0 ? "ok" : "FAILED");
    wm_report(t1 - t0);
    free(enc);
    free(dec);
    free(src);
    return wm_finish();
}
