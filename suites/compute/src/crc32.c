/* crc32 - CRC-32 (IEEE 802.3, as in zlib) by slicing-by-8 table lookups
 * over a 1 MiB buffer, repeated; the CRC runs on across rounds as if over
 * one long stream.  Prints the final CRC. */
#include "common.h"

#define BUF_SIZE (1u << 20)

static uint32_t T[8][256];

static void init_tables(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        T[0][i] = c;
    }
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 256; i++) T[k][i] = (T[k - 1][i] >> 8) ^ T[0][T[k - 1][i] & 0xff];
}

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n) {
    crc = ~crc;
    while (n >= 8) {
        uint32_t one = wm_load32_le(p) ^ crc, two = wm_load32_le(p + 4);
        crc = T[7][one & 0xff] ^ T[6][(one >> 8) & 0xff] ^ T[5][(one >> 16) & 0xff] ^ T[4][one >> 24] ^
              T[3][two & 0xff] ^ T[2][(two >> 8) & 0xff] ^ T[1][(two >> 16) & 0xff] ^ T[0][two >> 24];
        p += 8;
        n -= 8;
    }
    while (n-- > 0) crc = T[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static int selftest(void) {
    if (crc32_update(0, (const uint8_t *)"123456789", 9) != 0xcbf43926u) return 0;
    /* split input gives the same CRC as one piece */
    const char *fox = "The quick brown fox jumps over the lazy dog";
    uint32_t a = crc32_update(0, (const uint8_t *)fox, strlen(fox));
    uint32_t b = crc32_update(crc32_update(0, (const uint8_t *)fox, 13), (const uint8_t *)fox + 13,
                              strlen(fox) - 13);
    return a == 0x414fa339u && b == a;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 3600 : 160;
    init_tables();
    wm_selftest(selftest());

    uint8_t *buf = wm_alloc(BUF_SIZE);
    wm_fill(buf, BUF_SIZE, 13);
    uint32_t crc = 0;

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) crc = crc32_update(crc, buf, BUF_SIZE - r % 8);
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of about %u bytes\n", rounds, BUF_SIZE);
    printf("crc32 %08x\n", crc);
    wm_report(t1 - t0);
    free(buf);
    return wm_finish();
}
