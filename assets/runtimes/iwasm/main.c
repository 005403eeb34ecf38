/* wasmeter's `iwasm`: a minimal command line for WAMR's (WebAssembly Micro Runtime) fast
 * interpreter, built by scripts/install-runtimes against the WAMR sources that the crates.io
 * crate wamrx-sys bundles (the crate leaves out upstream's product-mini/, whose iwasm this
 * stands in for, with the same options for what wasmeter uses).
 *
 *   iwasm [--dir=DIR]... [--env=KEY=VALUE]... [--stack-size=BYTES] [--heap-size=BYTES]
 *         [--interp | --fast-jit] MODULE.wasm [ARGS...]
 *   iwasm --version
 *
 * The engine is the one the build has (the fast interpreter; a Fast JIT build runs the Fast
 * JIT unless given --interp, its classic interpreter). Runs MODULE as a WASI command (libc-wasi: `_start`, or `main` for a non-WASI module) with
 * argv = [MODULE, ARGS...] and each DIR preopened under its own name, as upstream's iwasm
 * does (`--dir=.` preopens the working directory as "."). Defaults as upstream: a 64 KiB
 * operand/call stack, no app heap for a WASI module.
 *
 * Exit status: the guest's proc_exit code, 0 when `_start` returns; 134 when the guest
 * traps ("iwasm: trap: <exception>" on stderr; upstream prints "Exception: ..." on stdout
 * and exits 1); 1 when the module cannot be read, loaded or instantiated ("iwasm: error:
 * ..."); 2 for a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_export.h"

#define MAX_LIST 16

static int usage(void) {
    fprintf(stderr,
            "usage: iwasm [--dir=DIR]... [--env=KEY=VALUE]... [--stack-size=BYTES]\n"
            "             [--heap-size=BYTES] [--interp | --fast-jit] MODULE.wasm [ARGS...]\n"
            "       iwasm --version\n");
    return 2;
}

/* The number after "--option=", or -1 when there is none. */
static long number(const char *text) {
    char *end;
    long n = strtol(text, &end, 10);
    return (*text && !*end && n >= 0 && n <= 0x7fffffff) ? n : -1;
}

/* Reads a whole file into a buffer that the module may keep; NULL when it cannot. */
static uint8_t *read_file(const char *path, uint32_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *bytes = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n <= 0x7fffffff &&
        fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc(n ? (size_t)n : 1)) &&
        fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = (uint32_t)n;
    return bytes;
}

int main(int argc, char **argv) {
    const char *dirs[MAX_LIST], *envs[MAX_LIST];
    uint32_t ndirs = 0, nenvs = 0;
    long stack_size = 64 * 1024, heap_size = 0;
    RunningMode mode = 0; /* 0: the build's own engine */
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--version") == 0) {
            uint32_t major, minor, patch;
            wasm_runtime_get_version(&major, &minor, &patch);
            printf("iwasm %" PRIu32 ".%" PRIu32 ".%" PRIu32
                   " (WAMR %s, wamrx-sys %s sources, wasmeter driver)\n",
                   major, minor, patch,
                   wasm_runtime_is_running_mode_supported(Mode_Fast_JIT) ? "Fast JIT"
                                                                         : "fast interpreter",
                   WAMRX_SYS_VERSION);
            return 0;
        } else if (strncmp(a, "--dir=", 6) == 0 && a[6] && ndirs < MAX_LIST) {
            dirs[ndirs++] = a + 6;
        } else if (strncmp(a, "--env=", 6) == 0 && strchr(a + 7, '=') && nenvs < MAX_LIST) {
            envs[nenvs++] = a + 6;
        } else if (strncmp(a, "--stack-size=", 13) == 0 && (stack_size = number(a + 13)) > 0) {
        } else if (strncmp(a, "--heap-size=", 12) == 0 && (heap_size = number(a + 12)) >= 0) {
        } else if (strcmp(a, "--interp") == 0 && wasm_runtime_is_running_mode_supported(Mode_Interp)) {
            mode = Mode_Interp;
        } else if (strcmp(a, "--fast-jit") == 0 &&
                   wasm_runtime_is_running_mode_supported(Mode_Fast_JIT)) {
            mode = Mode_Fast_JIT;
        } else if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else {
            return usage();
        }
    }
    if (i >= argc) return usage();
    const char *file = argv[i];

    /* The runtime allocates with the C library's malloc, as upstream's iwasm does. */
    RuntimeInitArgs init;
    memset(&init, 0, sizeof init);
    init.running_mode = mode;
    init.mem_alloc_type = Alloc_With_Allocator;
    init.mem_alloc_option.allocator.malloc_func = (void *)malloc;
    init.mem_alloc_option.allocator.realloc_func = (void *)realloc;
    init.mem_alloc_option.allocator.free_func = (void *)free;
    if (!wasm_runtime_full_init(&init)) {
        fprintf(stderr, "iwasm: error: cannot initialise the runtime\n");
        return 1;
    }

    char error[256] = {0};
    uint32_t size = 0;
    uint8_t *wasm = read_file(file, &size);
    if (!wasm) {
        fprintf(stderr, "iwasm: error: cannot read %s\n", file);
        return 1;
    }
    wasm_module_t module = wasm_runtime_load(wasm, size, error, sizeof error);
    if (!module) {
        fprintf(stderr, "iwasm: error: cannot load %s: %s\n", file, error);
        return 1;
    }
    /* WASI: preopened directories, environment, argv = [MODULE, ARGS...]. */
    wasm_runtime_set_wasi_args(module, dirs, ndirs, NULL, 0, envs, nenvs, argv + i, argc - i);
    wasm_module_inst_t inst = wasm_runtime_instantiate(module, (uint32_t)stack_size,
                                                       (uint32_t)heap_size, error, sizeof error);
    if (!inst) {
        fprintf(stderr, "iwasm: error: cannot instantiate %s: %s\n", file, error);
        return 1;
    }

    /* Runs `_start`; proc_exit ends it without an exception and leaves its code. */
    int status = 0;
    if (wasm_application_execute_main(inst, argc - i, argv + i)) {
        status = (int)wasm_runtime_get_wasi_exit_code(inst);
    } else {
        const char *exception = wasm_runtime_get_exception(inst);
        static const char prefix[] = "Exception: ";
        if (!exception) exception = "unknown failure";
        if (strncmp(exception, prefix, sizeof prefix - 1) == 0)
            exception += sizeof prefix - 1;
        fprintf(stderr, "iwasm: trap: %s\n", exception);
        status = 134;
    }
    wasm_runtime_deinstantiate(inst);
    wasm_runtime_unload(module);
    wasm_runtime_destroy();
    free(wasm);
    return status;
}
