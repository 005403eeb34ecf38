/* exit3: exits with status 3 after printing its answer: the status alone must fail it. */
#include "fault.h"

int main(int argc, char **argv) {
    fault_args(argc, argv);
    printf("exit3 survived\n");
    fflush(stdout);
    exit(3);
}
