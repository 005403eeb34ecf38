/* bintrees - the binary-trees benchmark (Benchmarks Game style): build
 * and walk many perfect binary trees with malloc/free, keeping one
 * long-lived tree.  Depth 15 (quick) or 18 (full). */
#include "common.h"

typedef struct tree {
    struct tree *left, *right;
} tree;

static tree *bottom_up(int depth) {
    tree *t = wm_alloc(sizeof *t);
    if (depth > 0) {
        t->left = bottom_up(depth - 1);
        t->right = bottom_up(depth - 1);
    } else {
        t->left = t->right = NULL;
    }
    return t;
}

static long check(const tree *t) {
    return 1 + (t->left ? check(t->left) + check(t->right) : 0);
}

static void destroy(tree *t) {
    if (t->left) {
        destroy(t->left);
        destroy(t->right);
    }
    free(t);
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const int min_depth = 4;
    int max_depth = full ? 18 : 15;
    char out[2048];
    size_t used = 0;

    uint64_t t0 = wm_now_ns();
    int stretch = max_depth + 1;
    tree *st = bottom_up(stretch);
    used += (size_t)snprintf(out + used, sizeof out - used, "stretch tree of depth %d\t check: %ld\n",
                             stretch, check(st));
    destroy(st);

    tree *long_lived = bottom_up(max_depth);
    for (int d = min_depth; d <= max_depth; d += 2) {
        long iterations = 1L << (max_depth - d + min_depth);
        long sum = 0;
        for (long i = 0; i < iterations; i++) {
            tree *t = bottom_up(d);
            sum += check(t);
            destroy(t);
        }
        used += (size_t)snprintf(out + used, sizeof out - used, "%ld\t trees of depth %d\t check: %ld\n",
                                 iterations, d, sum);
    }
    used += (size_t)snprintf(out + used, sizeof out - used, "long lived tree of depth %d\t check: %ld\n",
                             max_depth, check(long_lived));
    destroy(long_lived);
    uint64_t t1 = wm_now_ns();

    fputs(out, stdout);
    wm_report(t1 - t0);
    return wm_finish();
}
