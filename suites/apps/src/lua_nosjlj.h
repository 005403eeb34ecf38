/* lua_nosjlj.h - forced into every Lua source of the `apps` suite, natively and in wasm.
 *
 * Lua raises errors with setjmp/longjmp, which Debian's wasi-libc does not have (wasm has
 * no way to unwind the stack without the exception-handling proposal, which not every
 * runtime here supports). The suite's scripts raise no errors and use no coroutines, so
 * Lua is built with errors fatal: an error prints its message and aborts. Both builds use
 * this header, so native and wasm run the same code.
 */
#include <stdio.h>
#include <stdlib.h>
#define LUAI_THROW(L, c)                                                                    \
    (fprintf(stderr, "lua: error %d raised: %s (errors are fatal in this build)\n",        \
             (int)(c)->status, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?"), \
     abort())
#define LUAI_TRY(L, c, a) \
    { a }
#define luai_jmpbuf int
