/* The mark of the marked wasm3 (build.rs: profiled cells only): the guest function this
 * thread is in. The copy's op_Entry sets it on entering a function and puts the caller's
 * back on leaving, so a profiler's second thread can read where the interpreter is.
 * NULL outside the guest. */
#include "m3_env.h"

_Thread_local void * volatile wasmeter_m3_current;

/* Where this thread's mark is, for the profiler's thread to read while this one runs. */
void * volatile *wasmeter_m3_mark(void) { return &wasmeter_m3_current; }

/* A marked function's index in its module's function space (imports first), or -1. */
int32_t wasmeter_m3_function_index(IM3Function function) {
    if (!function || !function->module) return -1;
    IM3Module module = function->module;
    if (function < module->functions || function >= module->functions + module->numFunctions)
        return -1;
    return (int32_t)(function - module->functions);
}
