/* A module for wasmeter's options, built for wasm32-wasi and natively by build.sh:
 *   probe FILE        prints FILE (read through a folder given with --dir), then its size
 *   --invoke mix A B  the export `mix` (no WASI): A * 1000003 + B, an i32 and an i64
 */
#include <stdint.h>
#include <stdio.h>

__attribute__((export_name("mix"))) int64_t mix(int32_t a, int64_t b) {
    return (int64_t)a * 1000003 + b;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: probe FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char buf[4096];
    size_t n, total = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        fwrite(buf, 1, n, stdout);
        total += n;
    }
    fclose(f);
    printf("%zu bytes\n", total);
    return 0;
}
