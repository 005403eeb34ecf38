/* big_stdout: writes 100 MB to stdout (the harness keeps at most 16 MiB of it). */
#include "fault.h"

int main(int argc, char **argv) {
    fault_args(argc, argv);
    static char line[1000];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < 100000; i++) {
        if (fwrite(line, 1, sizeof line, stdout) != sizeof line) {
            return 1;
        }
    }
    return 0;
}
