/* wrong_answer: exits 0 with an answer that differs from the known one. */
#include "fault.h"

int main(int argc, char **argv) {
    fault_args(argc, argv);
    printf("wrong_answer 41\n");
    return 0;
}
