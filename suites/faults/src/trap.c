/* trap: executes `unreachable` (wasm) / an illegal instruction (native). */
#include "fault.h"

int main(int argc, char **argv) {
    fault_args(argc, argv);
    __builtin_trap();
    printf("trap survived\n");
    return 0;
}
