/* infinite_loop: never returns; only the harness's timeout ends it. */
#include "fault.h"

int main(int argc, char **argv) {
    fault_args(argc, argv);
    volatile unsigned long spins = 0;
    for (;;) {
        spins++;
    }
    printf("infinite_loop survived\n");
    return 0;
}
