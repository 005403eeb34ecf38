/* oob: reads far outside linear memory (wasm: out-of-bounds trap; native: an unmapped
 * address, SIGSEGV). */
#include "fault.h"
#include <stdint.h>

int main(int argc, char **argv) {
    fault_args(argc, argv);
    volatile uint8_t *far = (volatile uint8_t *)(uintptr_t)0xFFFFFFF0u;
    printf("oob survived %d\n", far[0]);
    return 0;
}
