/* wasmeter's command line for the wasm3 interpreter, built by scripts/install-runtimes
 * against the wasm3 sources that the crates.io crate wasm3-sys bundles (the crate leaves
 * out upstream's CLI, platforms/app/main.c; this is a short stand-in modelled on it).
 *
 *   wasm3 [--stack-size BYTES] MODULE.wasm [ARGS...]
 *   wasm3 --version
 *
 * Runs MODULE's `_start` with WASI linked (wasm3's own "simple" WASI, d_m3HasWASI), the
 * guest's argv being [MODULE, ARGS...] as upstream's CLI passes it. wasm3 preopens the
 * working directory as "./" (fd 3). That WASI is thin: it passes paths and descriptors to
 * the host as they are (the guest's fd N is the host's fd N), so it is no sandbox.
 *
 * Exit status: the guest's proc_exit code, 0 when `_start` returns; 134 when the guest
 * traps ("wasm3: trap: <message>" on stderr); 1 when the module cannot be read, parsed,
 * loaded, linked or compiled ("wasm3: error: ..."); 2 for a usage error.
 */
#define _POSIX_C_SOURCE 200809L /* O_DIRECTORY, dup2 under -std=c11 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wasm3.h"
#include "m3_api_wasi.h"
#include "m3_env.h" /* M3Runtime: exit_code, modules */

/* Upstream's CLI gives every runtime a 64 KiB value stack; --stack-size changes it. */
#define DEFAULT_STACK_SIZE (64 * 1024)

static int usage(void) {
    fprintf(stderr, "usage: wasm3 [--stack-size BYTES] MODULE.wasm [ARGS...]\n"
                    "       wasm3 --version\n");
    return 2;
}

/* Prints a failure of wasm3 with what it knows about where it happened; returns the exit
 * status for it: 134 for a trap (wasm3's trap messages start "[trap] "), else 1. */
static int fail(IM3Runtime runtime, const char *what, M3Result result) {
    static const char trap_prefix[] = "[trap] ";
    int trap = strncmp(result, trap_prefix, sizeof trap_prefix - 1) == 0;
    const char *message = trap ? result + sizeof trap_prefix - 1 : result;
    M3ErrorInfo info = {0};
    if (runtime) m3_GetErrorInfo(runtime, &info);
    if (trap)
        fprintf(stderr, "wasm3: trap: %s", message);
    else
        fprintf(stderr, "wasm3: error: %s: %s", what, message);
    if (info.message && *info.message && strcmp(info.message, message) != 0)
        fprintf(stderr, " (%s)", info.message);
    fputc('\n', stderr);
    return trap ? 134 : 1;
}

/* Reads a whole file; NULL (errno set) when it cannot. */
static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *bytes = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (bytes = malloc(n ? (size_t)n : 1)) && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

int main(int argc, char **argv) {
    unsigned long stack_size = DEFAULT_STACK_SIZE;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("wasm3 %s (wasm3-sys %s sources, wasmeter driver)\n", M3_VERSION,
                   WASM3_SYS_VERSION);
            return 0;
        } else if (strcmp(argv[i], "--stack-size") == 0 && i + 1 < argc) {
            char *end;
            stack_size = strtoul(argv[++i], &end, 10);
            if (*end || stack_size < 1024 || stack_size > 0x40000000UL) return usage();
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else {
            return usage();
        }
    }
    if (i >= argc) return usage();
    const char *file = argv[i];

    size_t size = 0;
    unsigned char *wasm = read_file(file, &size);
    if (!wasm) {
        fprintf(stderr, "wasm3: error: cannot read %s\n", file);
        return 1;
    }

    IM3Environment env = m3_NewEnvironment();
    IM3Runtime runtime = env ? m3_NewRuntime(env, (uint32_t)stack_size, NULL) : NULL;
    if (!runtime) {
        fprintf(stderr, "wasm3: error: cannot create the runtime\n");
        return 1;
    }

    /* Parse, load (the runtime then owns the module), link WASI, find _start. */
    IM3Module module;
    IM3Function start;
    M3Result result = m3_ParseModule(env, &module, wasm, (uint32_t)size);
    if (result) return fail(runtime, "parse", result);
    result = m3_LoadModule(runtime, module);
    if (result) return fail(runtime, "load", result);
    /* The guest finds its "." at fd 3 and uses it as the host's fd 3, which is what
     * m3_LinkWASI opens only when nothing else holds 3 (an inherited descriptor may). */
    int cwd = open(".", O_RDONLY | O_DIRECTORY);
    if (cwd < 0 || (cwd != 3 && (dup2(cwd, 3) != 3 || close(cwd) != 0))) {
        fprintf(stderr, "wasm3: error: cannot open the working directory as fd 3\n");
        return 1;
    }
    result = m3_LinkWASI(runtime->modules);
    if (result) return fail(runtime, "link WASI", result);
    result = m3_FindFunction(&start, runtime, "_start");
    if (result) return fail(runtime, "find _start", result);

    /* For `_start`, wasm3 takes argc/argv as the guest's WASI arguments, not as call
     * arguments; argv[0] is the module as named on the command line. */
    result = m3_CallWithArgs(start, (uint32_t)(argc - i), (const char *const *)(argv + i));
    if (result == m3Err_trapExit) return runtime->exit_code; /* proc_exit(N) */
    if (result) return fail(runtime, "run", result);
    return 0;
}
