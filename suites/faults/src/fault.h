/* fault.h: what every faults guest shares. Each guest misbehaves in one way on purpose; the
 * answer they would print if they did not ("<name> survived") is the known answer, so a
 * runtime that lets a fault pass unnoticed fails the cell as a wrong answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size word every suite passes; the faults do not scale with it. */
static void fault_args(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "quick") != 0 && strcmp(argv[1], "full") != 0) {
        fprintf(stderr, "unknown size '%s'\n", argv[1]);
        exit(2);
    }
}
