/* hex - hexadecimal encode + decode round trip of 512 KiB of pseudorandom
 * bytes, repeated; each round changes one input byte and alternates lower
 * and upper case.  Prints a checksum of the last encoding. */
#include "common.h"

#define SRC_SIZE (1u << 19)

static int8_t UNHEX[256];

static void init_tables(void) {
    memset(UNHEX, -1, sizeof UNHEX);
    for (int i = 0; i < 10; i++) UNHEX['0' + i] = (int8_t)i;
    for (int i = 0; i < 6; i++) {
        UNHEX['a' + i] = (int8_t)(10 + i);
        UNHEX['A' + i] = (int8_t)(10 + i);
    }
}

static void hex_encode(char *out, const uint8_t *in, size_t n, int upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
}

/* Returns 0 on success, -1 on a character that is not a hex digit. */
static int hex_decode(uint8_t *out, const char *in, size_t nbytes) {
    int bad = 0;
    for (size_t i = 0; i < nbytes; i++) {
        int hi = UNHEX[(uint8_t)in[2 * i]], lo = UNHEX[(uint8_t)in[2 * i + 1]];
        bad |= hi | lo;
        out[i] = (uint8_t)((hi << 4) | (lo & 15));
    }
    return bad < 0 ? -1 : 0;
}

static int selftest(void) {
    uint8_t in[4] = {0x00, 0x9f, 0xa5, 0xff}, out[4];
    char txt[9] = {0};
    hex_encode(txt, in, 4, 0);
    if (strcmp(txt, "009fa5ff") != 0) return 0;
    hex_encode(txt, in, 4, 1);
    if (strcmp(txt, "009FA5FF") != 0) return 0;
    if (hex_decode(out, "009fA5Ff", 4) != 0 || memcmp(out, in, 4) != 0) return 0;
    return hex_decode(out, "00g0", 2) == -1;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 1600 : 80;
    init_tables();
    wm_selftest(selftest());

    uint8_t *src = wm_alloc(SRC_SIZE);
    uint8_t *dec = wm_alloc(SRC_SIZE);
    char *enc = wm_alloc(2 * SRC_SIZE);
    wm_fill(src, SRC_SIZE, 8);
    size_t mismatches = 0;

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        hex_encode(enc, src, SRC_SIZE, (int)(r & 1));
        if (hex_decode(dec, enc, SRC_SIZE) != 0 || memcmp(dec, src, SRC_SIZE) != 0) mismatches++;
        src[(r * 7919u) % SRC_SIZE] ^= (uint8_t)enc[(r * 104729u) % (2 * SRC_SIZE)];
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u bytes\n", rounds, SRC_SIZE);
    printf("encoded %u chars, checksum %016llx\n", 2 * SRC_SIZE,
           (unsigned long long)wm_fnv64(enc, 2 * SRC_SIZE));
    printf("round trip %s\n", mismatches == 0 ? "ok" : "FAILED");
    wm_report(t1 - t0);
    free(enc);
    free(dec);
    free(src);
    return wm_finish();
}
