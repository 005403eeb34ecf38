/* mandelbrot - escape-time iteration over a square grid of the Mandelbrot
 * set in double precision (at most 200 iterations per point); prints the
 * total iteration count, the points inside and a hash of the bitmap.
 * Only +, - and * are used, so results are IEEE-exact everywhere (as long
 * as nothing fuses multiply-adds: see the manifest). */
#include "common.h"

#define MAX_ITER 200

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    int n = full ? 3000 : 600;
    size_t row_bytes = (size_t)(n + 7) / 8;
    uint8_t *bitmap = wm_alloc(row_bytes * (size_t)n);
    memset(bitmap, 0, row_bytes * (size_t)n);
    uint64_t total_iter = 0, inside = 0;

    uint64_t t0 = wm_now_ns();
    for (int y = 0; y < n; y++) {
        double ci = 2.0 * y / n - 1.0;
        uint8_t *row = bitmap + row_bytes * (size_t)y;
        for (int x = 0; x < n; x++) {
            double cr = 2.0 * x / n - 1.5;
            double zr = 0.0, zi = 0.0, zr2 = 0.0, zi2 = 0.0;
            int it = 0;
            while (it < MAX_ITER && zr2 + zi2 <= 4.0) {
                zi = 2.0 * zr * zi + ci;
                zr = zr2 - zi2 + cr;
                zr2 = zr * zr;
                zi2 = zi * zi;
                it++;
            }
            total_iter += (uint64_t)it;
            if (it == MAX_ITER) {
                inside++;
                row[x >> 3] |= (uint8_t)(0x80 >> (x & 7));
            }
        }
    }
    uint64_t t1 = wm_now_ns();

    printf("grid %dx%d, max %d iterations\n", n, n, MAX_ITER);
    printf("iterations %llu inside %llu bitmap %016llx\n", (unsigned long long)total_iter,
           (unsigned long long)inside, (unsigned long long)wm_fnv64(bitmap, row_bytes * (size_t)n));
    wm_report(t1 - t0);
    free(bitmap);
    return wm_finish();
}
