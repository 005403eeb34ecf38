/* The one wasm3 setting wasmeter needs that wasm3.h has no function for: the most pages
 * the guest's linear memory may grow to. wasm3's own `memoryLimit` only clips the
 * allocation while letting `memory.grow` succeed; a lower `maxPages` makes the grow
 * fail (-1) as the module's own maximum would. Called after m3_LoadModule, which sets
 * maxPages from the module. */
#include "m3_env.h"

void wasmeter_m3_cap_pages(IM3Runtime runtime, uint32_t pages) {
    if (runtime->memory.maxPages > pages) runtime->memory.maxPages = pages;
}

/* The guest function this thread is in: wasm3's op_Entry sets it on entering a function
 * and puts back the caller's on leaving (m3_exec.c, built with WASMETER_MARK_FUNCTION), so
 * a profiler's second thread can read where the interpreter is. NULL outside the guest. */
_Thread_local IM3Function volatile wasmeter_m3_current;

/* Where this thread's mark is, for the profiler's thread to read while this one runs. */
IM3Function volatile *wasmeter_m3_mark(void) { return &wasmeter_m3_current; }

/* A marked function's index in its module's function space (imports first), or -1. */
int32_t wasmeter_m3_function_index(IM3Function function) {
    if (!function || !function->module) return -1;
    IM3Module module = function->module;
    if (function < module->functions || function >= module->functions + module->numFunctions)
        return -1;
    return (int32_t)(function - module->functions);
}
