/* control: a well-behaved guest run after the faulty ones, so a run shows that the faults
 * left the harness and the runtime fit to measure. It ends through exit(0), which some
 * embeddings report as an error to their host (wasmer's WasiError::Exit): still a pass. */
#include "fault.h"
#include <stdint.h>

int main(int argc, char **argv) {
    fault_args(argc, argv);
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 1000000; i++) {
        h = (h ^ (uint64_t)(i & 0xff)) * 1099511628211ull;
    }
    printf("control %016llx\n", (unsigned long long)h);
    exit(0);
}
