/* stack_overflow: unbounded recursion whose frames live on the call stack itself (no
 * address-taken locals, so C's shadow stack in linear memory is not used): the engine's
 * stack limit must end it (native: the guard page, SIGSEGV). */
#include "fault.h"

__attribute__((noinline)) static unsigned deeper(unsigned depth, unsigned salt) {
    /* Work after the call keeps it from becoming a loop. */
    return deeper(depth + 1, salt * 31u + depth) * 3u + salt;
}

int main(int argc, char **argv) {
    fault_args(argc, argv);
    printf("stack_overflow survived %u\n", deeper(0, (unsigned)argc));
    return 0;
}
