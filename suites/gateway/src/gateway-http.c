/* gateway-http - the gateway guest as a wasi:http/proxy component: the same four workloads
 * as gateway.c, but as a `wasi:http/incoming-handler` that a host instantiates once per
 * request (wasmtime-wasi-http embedded, or `wasmtime serve`), the way wasi:http services are
 * deployed.  Built by ../build-component.sh from the bindings wit-bindgen generated for
 * ../wit/gateway.wit (component/).  See ../../README.md, "Gateway guest protocol".
 *
 *   GET /  or /hello     200  hello, world
 *   GET /compute?n=N     200  hex of d, where d = SHA-256("wasmeter"), then N times SHA-256(d)
 *   GET /state           200  X-Counter: C+1, body C+1, where C is the request's X-Counter
 *                             header: the host keeps the counter, as it does for gateway.c
 *   POST /proxy          200  the body, sent on to http://$UPSTREAM/echo with outgoing
 *                             wasi:http and answered with what the upstream answered
 *   other                404  unknown workload '<w>'
 *   bad input            400  one-line reason; an upstream failure is 502
 */
#include <stdlib.h>
#include <string.h>

#include "../component/gateway_http.h"
#include "sha256.h"

#define COMPUTE_MAX 10000000u
#define COUNTER_MAX_DIGITS 18
#define CHUNK 4096 /* most bytes one blocking write may take */
#define BODY_MAX (1u << 20)

typedef struct {
    uint8_t *ptr;
    size_t len;
} bytes_t;

/* ---- text (no stdio: the component imports nothing but wasi:http and the environment) -- */

typedef struct {
    char buf[192];
    size_t len;
} text_t;

static void put(text_t *t, const char *s) {
    while (*s && t->len + 1 < sizeof t->buf) t->buf[t->len++] = *s++;
    t->buf[t->len] = 0;
}

static void put_u64(text_t *t, uint64_t v) {
    char d[21];
    int n = 0;
    do d[n++] = (char)('0' + v % 10); while ((v /= 10) && n < 20);
    char s[21];
    for (int i = 0; i < n; i++) s[i] = d[n - 1 - i];
    s[n] = 0;
    put(t, s);
}

static void put_i64(text_t *t, int64_t v) {
    if (v < 0) put(t, "-");
    put_u64(t, v < 0 ? (uint64_t)(-v) : (uint64_t)v);
}

/* ---- responses ------------------------------------------------------------------- */

static void append_header(wasi_http_types_borrow_fields_t h, const char *name, const char *value) {
    wasi_http_types_field_name_t n = {(uint8_t *)name, strlen(name)};
    wasi_http_types_field_value_t v = {(uint8_t *)value, strlen(value)};
    wasi_http_types_header_error_t err;
    wasi_http_types_method_fields_append(h, &n, &v, &err);
}

/* Answers with status, a text/plain body and, if `counter` is not NULL, X-Counter. */
static void respond(wasi_http_types_own_response_outparam_t out, uint16_t status,
                    const char *counter, const uint8_t *data, size_t len) {
    text_t length = {.len = 0};
    put_u64(&length, len);
    wasi_http_types_own_fields_t headers = wasi_http_types_constructor_fields();
    wasi_http_types_borrow_fields_t h = wasi_http_types_borrow_fields(headers);
    append_header(h, "content-type", "text/plain");
    append_header(h, "content-length", length.buf);
    if (counter) append_header(h, "x-counter", counter);
    wasi_http_types_own_outgoing_response_t resp =
        wasi_http_types_constructor_outgoing_response(headers);
    wasi_http_types_borrow_outgoing_response_t r = wasi_http_types_borrow_outgoing_response(resp);
    wasi_http_types_method_outgoing_response_set_status_code(r, status);
    wasi_http_types_own_outgoing_body_t body;
    wasi_http_types_method_outgoing_response_body(r, &body);
    wasi_http_types_result_own_outgoing_response_error_code_t result = {.is_err = false};
    result.val.ok = resp;
    wasi_http_types_static_response_outparam_set(out, &result);

    wasi_http_types_own_output_stream_t stream;
    wasi_http_types_method_outgoing_body_write(wasi_http_types_borrow_outgoing_body(body), &stream);
    wasi_io_streams_borrow_output_stream_t s = wasi_io_streams_borrow_output_stream(stream);
    for (size_t at = 0; at < len;) {
        size_t n = len - at < CHUNK ? len - at : CHUNK;
        gateway_http_list_u8_t chunk = {(uint8_t *)data + at, n};
        wasi_io_streams_stream_error_t err;
        if (!wasi_io_streams_method_output_stream_blocking_write_and_flush(s, &chunk, &err)) break;
        at += n;
    }
    wasi_io_streams_output_stream_drop_own(stream);
    wasi_http_types_error_code_t err;
    wasi_http_types_static_outgoing_body_finish(body, NULL, &err);
}

static void respond_str(wasi_http_types_own_response_outparam_t out, uint16_t status,
                        const char *text) {
    respond(out, status, NULL, (const uint8_t *)text, strlen(text));
}

/* ---- bodies ------------------------------------------------------------------------ */

/* Reads an incoming body to its end (at most BODY_MAX bytes) and finishes it. */
static bytes_t read_body(wasi_http_types_own_incoming_body_t body) {
    bytes_t b = {NULL, 0};
    wasi_http_types_own_input_stream_t stream;
    if (wasi_http_types_method_incoming_body_stream(wasi_http_types_borrow_incoming_body(body),
                                                    &stream)) {
        wasi_io_streams_borrow_input_stream_t s = wasi_io_streams_borrow_input_stream(stream);
        for (;;) {
            gateway_http_list_u8_t chunk;
            wasi_io_streams_stream_error_t err;
            if (!wasi_io_streams_method_input_stream_blocking_read(s, CHUNK, &chunk, &err)) break;
            if (b.len + chunk.len > BODY_MAX) {
                gateway_http_list_u8_free(&chunk);
                break;
            }
            uint8_t *nb = realloc(b.ptr, b.len + chunk.len + 1);
            if (nb == NULL) {
                gateway_http_list_u8_free(&chunk);
                break;
            }
            b.ptr = nb;
            memcpy(b.ptr + b.len, chunk.ptr, chunk.len);
            b.len += chunk.len;
            gateway_http_list_u8_free(&chunk);
        }
        wasi_io_streams_input_stream_drop_own(stream);
    }
    wasi_http_types_future_trailers_drop_own(wasi_http_types_static_incoming_body_finish(body));
    return b;
}

/* The value of a request header, NUL-terminated (malloc'd), or NULL. */
static char *header(wasi_http_types_borrow_incoming_request_t req, const char *name) {
    wasi_http_types_own_headers_t headers = wasi_http_types_method_incoming_request_headers(req);
    wasi_http_types_field_name_t n = {(uint8_t *)name, strlen(name)};
    wasi_http_types_list_field_value_t values;
    wasi_http_types_method_fields_get(wasi_http_types_borrow_fields(headers), &n, &values);
    char *v = NULL;
    if (values.len > 0) {
        v = malloc(values.ptr[0].len + 1);
        if (v) {
            memcpy(v, values.ptr[0].ptr, values.ptr[0].len);
            v[values.ptr[0].len] = 0;
        }
    }
    wasi_http_types_list_field_value_free(&values);
    wasi_http_types_fields_drop_own(headers);
    return v;
}

/* $UPSTREAM from the environment (malloc'd), or NULL. */
static char *upstream(void) {
    gateway_http_list_tuple2_string_string_t env;
    wasi_cli_environment_get_environment(&env);
    char *v = NULL;
    for (size_t i = 0; i < env.len && v == NULL; i++) {
        gateway_http_string_t k = env.ptr[i].f0, val = env.ptr[i].f1;
        if (k.len == 8 && memcmp(k.ptr, "UPSTREAM", 8) == 0 && (v = malloc(val.len + 1))) {
            memcpy(v, val.ptr, val.len);
            v[val.len] = 0;
        }
    }
    gateway_http_list_tuple2_string_string_free(&env);
    return v;
}

/* ---- workloads ----------------------------------------------------------------------- */

static void do_compute(wasi_http_types_own_response_outparam_t out, const char *query) {
    const char *arg = NULL;
    char buf[32] = "";
    /* ?n=N: the first `n=` parameter, up to the next `&`. */
    for (const char *p = query; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
        if (strncmp(p, "n=", 2) == 0) {
            size_t len = strcspn(p + 2, "&");
            if (len >= sizeof buf) len = sizeof buf - 1;
            memcpy(buf, p + 2, len);
            buf[len] = 0;
            arg = buf;
            break;
        }
    }
    if (arg == NULL) return respond_str(out, 400, "compute needs ?n=ITERATIONS\n");
    uint64_t n = 0;
    if (!parse_u64(arg, 19, &n) || n < 1 || n > COMPUTE_MAX) {
        text_t reason = {.len = 0};
        put(&reason, "compute: N must be an integer 1..");
        put_u64(&reason, COMPUTE_MAX);
        put(&reason, ", got '");
        put(&reason, printable(arg));
        put(&reason, "'\n");
        return respond_str(out, 400, reason.buf);
    }
    char hex[65];
    compute_hex(n, hex);
    respond(out, 200, NULL, (const uint8_t *)hex, sizeof hex);
}

static void do_state(wasi_http_types_own_response_outparam_t out, const char *in) {
    uint64_t c = 0;
    if (!parse_u64(in, COUNTER_MAX_DIGITS, &c)) {
        text_t reason = {.len = 0};
        put(&reason, "state: the host's X-Counter must be a non-negative integer of at most ");
        put_u64(&reason, COUNTER_MAX_DIGITS);
        put(&reason, " digits, got '");
        put(&reason, in ? printable(in) : "");
        put(&reason, "'\n");
        return respond_str(out, 400, reason.buf);
    }
    text_t counter = {.len = 0}, body = {.len = 0};
    put_u64(&counter, c + 1);
    put(&body, counter.buf);
    put(&body, "\n");
    respond(out, 200, counter.buf, (const uint8_t *)body.buf, body.len);
}

/* POSTs `body` to http://$UPSTREAM/echo and answers with the upstream's body. */
static void do_proxy(wasi_http_types_own_response_outparam_t out, bytes_t body) {
    text_t reason = {.len = 0};
    char *authority = upstream();
    if (authority == NULL) return respond_str(out, 502, "proxy: no UPSTREAM in the environment\n");

    /* A length, not a chunked body: what the C guest's host sends upstream, too. */
    text_t length = {.len = 0};
    put_u64(&length, body.len);
    wasi_http_types_own_fields_t headers = wasi_http_types_constructor_fields();
    append_header(wasi_http_types_borrow_fields(headers), "content-length", length.buf);
    wasi_http_types_own_outgoing_request_t req = wasi_http_types_constructor_outgoing_request(headers);
    wasi_http_types_borrow_outgoing_request_t r = wasi_http_types_borrow_outgoing_request(req);
    wasi_http_types_method_t post = {.tag = WASI_HTTP_TYPES_METHOD_POST};
    wasi_http_types_scheme_t http = {.tag = WASI_HTTP_TYPES_SCHEME_HTTP};
    gateway_http_string_t auth = {(uint8_t *)authority, strlen(authority)};
    gateway_http_string_t path = {(uint8_t *)"/echo", 5};
    wasi_http_types_method_outgoing_request_set_method(r, &post);
    wasi_http_types_method_outgoing_request_set_scheme(r, &http);
    wasi_http_types_method_outgoing_request_set_authority(r, &auth);
    wasi_http_types_method_outgoing_request_set_path_with_query(r, &path);
    wasi_http_types_own_outgoing_body_t obody;
    wasi_http_types_method_outgoing_request_body(r, &obody);

    wasi_http_outgoing_handler_own_future_incoming_response_t future;
    wasi_http_outgoing_handler_error_code_t herr;
    if (!wasi_http_outgoing_handler_handle(req, NULL, &future, &herr)) {
        wasi_http_types_outgoing_body_drop_own(obody);
        put(&reason, "proxy: the host refused the request to ");
        put(&reason, printable(authority));
        put(&reason, " (wasi:http error-code case ");
        put_i64(&reason, herr.tag);
        put(&reason, ")\n");
        free(authority);
        return respond_str(out, 502, reason.buf);
    }
    wasi_http_types_own_output_stream_t stream;
    wasi_http_types_method_outgoing_body_write(wasi_http_types_borrow_outgoing_body(obody), &stream);
    wasi_io_streams_borrow_output_stream_t s = wasi_io_streams_borrow_output_stream(stream);
    for (size_t at = 0; at < body.len;) {
        size_t n = body.len - at < CHUNK ? body.len - at : CHUNK;
        gateway_http_list_u8_t chunk = {body.ptr + at, n};
        wasi_io_streams_stream_error_t err;
        if (!wasi_io_streams_method_output_stream_blocking_write_and_flush(s, &chunk, &err)) break;
        at += n;
    }
    wasi_io_streams_output_stream_drop_own(stream);
    wasi_http_types_error_code_t ferr;
    wasi_http_types_static_outgoing_body_finish(obody, NULL, &ferr);

    wasi_http_types_borrow_future_incoming_response_t f =
        wasi_http_types_borrow_future_incoming_response(future);
    wasi_http_types_own_pollable_t ready = wasi_http_types_method_future_incoming_response_subscribe(f);
    wasi_io_poll_method_pollable_block(wasi_io_poll_borrow_pollable(ready));
    wasi_io_poll_pollable_drop_own(ready);
    wasi_http_types_result_result_own_incoming_response_error_code_void_t got;
    bool have = wasi_http_types_method_future_incoming_response_get(f, &got);
    wasi_http_types_future_incoming_response_drop_own(future);
    if (!have || got.is_err || got.val.ok.is_err) {
        put(&reason, "proxy: no answer from the upstream at ");
        put(&reason, printable(authority));
        put(&reason, " (wasi:http error-code case ");
        put_i64(&reason, have && !got.is_err ? got.val.ok.val.err.tag : -1);
        put(&reason, ")\n");
        free(authority);
        return respond_str(out, 502, reason.buf);
    }
    free(authority);
    wasi_http_types_own_incoming_response_t resp = got.val.ok.val.ok;
    wasi_http_types_borrow_incoming_response_t rb = wasi_http_types_borrow_incoming_response(resp);
    uint16_t status = wasi_http_types_method_incoming_response_status(rb);
    wasi_http_types_own_incoming_body_t ibody;
    bytes_t answer = {NULL, 0};
    if (wasi_http_types_method_incoming_response_consume(rb, &ibody)) answer = read_body(ibody);
    wasi_http_types_incoming_response_drop_own(resp);
    respond(out, status, NULL, answer.ptr, answer.len);
    free(answer.ptr);
}

/* ---- the handler ----------------------------------------------------------------------- */

void exports_wasi_http_incoming_handler_handle(
    exports_wasi_http_incoming_handler_own_incoming_request_t request,
    exports_wasi_http_incoming_handler_own_response_outparam_t out) {
    wasi_http_types_borrow_incoming_request_t req = wasi_http_types_borrow_incoming_request(request);
    gateway_http_string_t target = {NULL, 0};
    char *t = NULL;
    if (wasi_http_types_method_incoming_request_path_with_query(req, &target)) {
        t = malloc(target.len + 1);
        if (t) {
            memcpy(t, target.ptr, target.len);
            t[target.len] = 0;
        }
        gateway_http_string_free(&target);
    }
    if (t == NULL) {
        wasi_http_types_incoming_request_drop_own(request);
        return respond_str(out, 400, "no path\n");
    }
    /* The workload: the first path segment; the query after '?'. */
    char *query = strchr(t, '?');
    if (query) *query++ = 0;
    char *w = t[0] == '/' ? t + 1 : t;
    char *slash = strchr(w, '/');
    if (slash) *slash = 0;

    if (w[0] == 0 || strcmp(w, "hello") == 0) {
        respond_str(out, 200, "hello, world\n");
    } else if (strcmp(w, "compute") == 0) {
        do_compute(out, query);
    } else if (strcmp(w, "state") == 0) {
        char *c = header(req, "x-counter");
        do_state(out, c);
        free(c);
    } else if (strcmp(w, "proxy") == 0) {
        bytes_t body = {NULL, 0};
        wasi_http_types_own_incoming_body_t ibody;
        if (wasi_http_types_method_incoming_request_consume(req, &ibody)) body = read_body(ibody);
        do_proxy(out, body);
        free(body.ptr);
    } else {
        text_t reason = {.len = 0};
        put(&reason, "unknown workload '");
        put(&reason, printable(w));
        put(&reason, "'\n");
        respond_str(out, 404, reason.buf);
    }
    free(t);
    wasi_http_types_incoming_request_drop_own(request);
}
