/* matmul - single-precision 256x256 matrix multiply, repeated (power
 * iteration X <- X * M).  Scalar C in i-k-j order that compilers turn into
 * vector code; built twice for wasm, without and with -msimd128.  The order
 * of every addition is fixed, so results are bit-identical everywhere
 * (as long as nothing fuses multiply-adds: see the manifest). */
#include "common.h"

#define N 256

static void matmul(float *restrict y, const float *restrict x, const float *restrict m, int n) {
    for (int i = 0; i < n; i++) {
        float *restrict yi = y + (size_t)i * n;
        for (int j = 0; j < n; j++) yi[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            const float a = x[(size_t)i * n + k];
            const float *restrict mk = m + (size_t)k * n;
            for (int j = 0; j < n; j++) yi[j] += a * mk[j];
        }
    }
}

static float unit(uint64_t *s) {
    /* 24 random bits -> [0, 1), exact in float */
    return (float)(wm_rand64(s) >> 40) * (1.0f / 16777216.0f);
}

static int selftest(void) {
    float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4];
    matmul(c, a, b, 2);
    return c[0] == 19 && c[1] == 22 && c[2] == 43 && c[3] == 50;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 600 : 32;
    wm_selftest(selftest());

    float *x = wm_alloc(sizeof(float) * N * N);
    float *y = wm_alloc(sizeof(float) * N * N);
    float *m = wm_alloc(sizeof(float) * N * N);
    uint64_t s = 9;
    /* rows of M sum to about 1, so X neither blows up nor vanishes */
    for (int i = 0; i < N * N; i++) m[i] = unit(&s) * (2.0f / N);
    for (int i = 0; i < N * N; i++) x[i] = unit(&s);

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        matmul(y, x, m, N);
        float *t = x;
        x = y;
        y = t;
    }
    uint64_t t1 = wm_now_ns();

    double sum = 0.0;
    for (int i = 0; i < N * N; i++) sum += x[i];
    printf("rounds %u of %dx%d\n", rounds, N, N);
    printf("sum %.6e first %.9e last %.9e\n", sum, (double)x[0], (double)x[N * N - 1]);
    wm_report(t1 - t0);
    free(m);
    free(y);
    free(x);
    return wm_finish();
}
