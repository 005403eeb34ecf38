/* chacha20 - ChaCha20 (RFC 8439) encryption of a 1 MiB buffer in place,
 * repeated; each round uses a fresh nonce.  Prints a checksum of the final
 * ciphertext and its first bytes. */
#include "common.h"

#define BUF_SIZE (1u << 20)

#define ROTL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)          \
    do {                        \
        a += b;                 \
        d = ROTL32(d ^ a, 16);  \
        c += d;                 \
        b = ROTL32(b ^ c, 12);  \
        a += b;                 \
        d = ROTL32(d ^ a, 8);   \
        c += d;                 \
        b = ROTL32(b ^ c, 7);   \
    } while (0)

static void chacha20_block(const uint32_t in[16], uint8_t out[64]) {
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int i = 0; i < 10; i++) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) wm_store32_le(out + 4 * i, x[i] + in[i]);
}

static void chacha20_setup(uint32_t st[16], const uint8_t key[32], uint32_t counter,
                           const uint8_t nonce[12]) {
    st[0] = 0x61707865;
    st[1] = 0x3320646e;
    st[2] = 0x79622d32;
    st[3] = 0x6b206574;
    for (int i = 0; i < 8; i++) st[4 + i] = wm_load32_le(key + 4 * i);
    st[12] = counter;
    for (int i = 0; i < 3; i++) st[13 + i] = wm_load32_le(nonce + 4 * i);
}

static void chacha20_xor(uint8_t *p, size_t n, const uint8_t key[32], uint32_t counter,
                         const uint8_t nonce[12]) {
    uint32_t st[16];
    uint8_t ks[64];
    chacha20_setup(st, key, counter, nonce);
    while (n > 0) {
        chacha20_block(st, ks);
        st[12]++;
        size_t k = n < 64 ? n : 64;
        for (size_t i = 0; i < k; i++) p[i] ^= ks[i];
        p += k;
        n -= k;
    }
}

static int selftest(void) {
    /* RFC 8439 section 2.3.2: block function test vector. */
    uint8_t key[32], nonce[12], out[64];
    uint32_t st[16];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
    wm_from_hex(nonce, "000000090000004a00000000", 12);
    chacha20_setup(st, key, 1, nonce);
    chacha20_block(st, out);
    if (!wm_eq_hex(out, 64,
                   "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                   "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"))
        return 0;
    /* RFC 8439 section 2.4.2: encryption test vector (first 16 bytes). */
    static const char *plain =
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
        "the future, sunscreen would be it.";
    uint8_t msg[114];
    memcpy(msg, plain, 114);
    wm_from_hex(nonce, "000000000000004a00000000", 12);
    chacha20_xor(msg, 114, key, 1, nonce);
    return wm_eq_hex(msg, 16, "6e2e359a2568f98041ba0728dd0d6981") &&
           wm_eq_hex(msg + 112, 2, "874d");
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 1000 : 48;
    wm_selftest(selftest());

    uint8_t *buf = wm_alloc(BUF_SIZE);
    wm_fill(buf, BUF_SIZE, 3);
    uint8_t key[32], nonce[12];
    wm_fill(key, 32, 4);
    memset(nonce, 0, sizeof nonce);

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        wm_store32_le(nonce + 8, r);
        chacha20_xor(buf, BUF_SIZE, key, 0, nonce);
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u bytes\n", rounds, BUF_SIZE);
    printf("checksum %016llx\n", (unsigned long long)wm_fnv64(buf, BUF_SIZE));
    wm_print_hex("head", buf, 16);
    wm_report(t1 - t0);
    free(buf);
    return wm_finish();
}
