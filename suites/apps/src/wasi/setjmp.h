/* setjmp.h for the wasm builds of the `apps` suite: Debian's wasi-libc has none, and Lua,
 * which includes it, raises errors through lua_nosjlj.h instead of longjmp. Declares
 * nothing, so any use of setjmp fails to compile rather than misbehaving. */
#ifndef WASMETER_APPS_SETJMP_H
#define WASMETER_APPS_SETJMP_H
#endif
