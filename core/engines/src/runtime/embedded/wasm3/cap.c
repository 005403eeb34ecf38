/* The one wasm3 setting wasmeter needs that wasm3.h has no function for: the most pages
 * the guest's linear memory may grow to. wasm3's own `memoryLimit` only clips the
 * allocation while letting `memory.grow` succeed; a lower `maxPages` makes the grow
 * fail (-1) as the module's own maximum would. Called after m3_LoadModule, which sets
 * maxPages from the module. */
#include "m3_env.h"

void wasmeter_m3_cap_pages(IM3Runtime runtime, uint32_t pages) {
    if (runtime->memory.maxPages > pages) runtime->memory.maxPages = pages;
}
