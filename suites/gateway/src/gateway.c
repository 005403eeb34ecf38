/* gateway - the guest of the HTTP gateway suite: one WASI command run once per request.
 *
 *   gateway <workload> [arg]      stdin: the request body (read to the end, may be empty)
 *
 * It prints a CGI-like response on stdout: `Status: NNN`, `Content-Type: text/plain`, any
 * extra headers, an empty line, then the body.  It uses no files, no environment and no
 * clock, only argv, stdin and stdout, and always exits 0.  See ../../README.md, "Gateway
 * guest protocol".
 *
 *   hello        200  hello, world
 *   compute N    200  hex of d, where d = SHA-256("wasmeter"), then N times d = SHA-256(d)
 *   state C      200  X-Counter: C+1, body C+1
 *   proxy        200  X-Forward: /echo, body = the request body
 *   other        404  unknown workload '<w>'
 *   bad input    400  one-line reason
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COMPUTE_MAX 10000000u
#define COUNTER_MAX_DIGITS 18 /* C < 10^18, so C+1 fits easily in 64 bits */

#include "sha256.h"

/* ---- request and response ----------------------------------------------------------- */

static uint8_t *body;    /* the request body */
static size_t body_len;

/* Read stdin to the end.  A read error ends the body where it happened. */
static void read_body(void) {
    size_t cap = 0;
    for (;;) {
        if (body_len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(body, ncap);
            if (nb == NULL) break;
            body = nb;
            cap = ncap;
        }
        ssize_t r = read(0, body + body_len, cap - body_len);
        if (r <= 0) break;
        body_len += (size_t)r;
    }
}

/* Print the response: status line, content type, `extra` headers (each "Name: value\n",
 * may be NULL), an empty line, then the body. */
static int respond(int status, const char *extra, const void *data, size_t len) {
    printf("Status: %d\nContent-Type: text/plain\n%s\n", status, extra ? extra : "");
    if (len) fwrite(data, 1, len, stdout);
    fflush(stdout);
    return 0;
}

static int respond_str(int status, const char *extra, const char *text) {
    return respond(status, extra, text, strlen(text));
}

static int do_compute(const char *arg) {
    char reason[128];
    uint64_t n = 0;
    /* At most 19 digits (below 2^64); leading zeros are allowed. */
    if (!parse_u64(arg, 19, &n) || n < 1 || n > COMPUTE_MAX) {
        snprintf(reason, sizeof reason, "compute: N must be an integer 1..%u, got '%s'\n",
                 COMPUTE_MAX, arg ? printable(arg) : "");
        return respond_str(400, NULL, reason);
    }
    char hex[65];
    compute_hex(n, hex);
    return respond(200, NULL, hex, sizeof hex);
}

static int do_state(const char *arg) {
    char text[64], header[64], reason[128];
    uint64_t c = 0;
    if (!parse_u64(arg, COUNTER_MAX_DIGITS, &c)) {
        snprintf(reason, sizeof reason,
                 "state: C must be a non-negative integer of at most %d digits, got '%s'\n",
                 COUNTER_MAX_DIGITS, arg ? printable(arg) : "");
        return respond_str(400, NULL, reason);
    }
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)(c + 1));
    snprintf(header, sizeof header, "X-Counter: %llu\n", (unsigned long long)(c + 1));
    return respond_str(200, header, text);
}

int main(int argc, char **argv) {
    read_body();
    if (argc < 2) return respond_str(400, NULL, "usage: gateway <workload> [arg]\n");
    const char *w = argv[1];
    const char *arg = argc > 2 ? argv[2] : NULL;
    if (strcmp(w, "hello") == 0) return respond_str(200, NULL, "hello, world\n");
    if (strcmp(w, "compute") == 0) return do_compute(arg);
    if (strcmp(w, "state") == 0) return do_state(arg);
    if (strcmp(w, "proxy") == 0) return respond(200, "X-Forward: /echo\n", body, body_len);
    char reason[128];
    snprintf(reason, sizeof reason, "unknown workload '%s'\n", printable(w));
    return respond_str(404, NULL, reason);
}
