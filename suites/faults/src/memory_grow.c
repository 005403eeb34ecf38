/* memory_grow: allocates and touches 16 MiB at a time until memory is refused, then says
 * how far it got on stderr and exits 12 (only if nothing stopped it before). The blocks
 * are chained so that the compiler cannot drop the allocations. */
#include "fault.h"

static void *volatile head;

int main(int argc, char **argv) {
    fault_args(argc, argv);
    const size_t chunk = 16u << 20;
    size_t total = 0;
    for (;;) {
        char *p = malloc(chunk);
        if (p == NULL) {
            fprintf(stderr, "memory refused after %zu MiB\n", total >> 20);
            return 12;
        }
        memset(p, 0xA5, chunk);
        *(void **)p = head;
        head = p;
        total += chunk;
    }
    printf("memory_grow survived\n");
    return 0;
}
