/* simdjson.cpp - the `apps` suite's C++ program: a driver written here around simdjson
 * (C++17; the amalgamation that the npm package `simdjson` ships), built with libc++ for
 * wasm (Debian's libc++-19-dev-wasm32) and natively.
 *
 * Generates a JSON document of records (numbers, strings with escapes, nested arrays and
 * objects), parses it with simdjson's DOM parser several times and walks every record,
 * summing and hashing what it reads. simdjson is built with only its portable `fallback`
 * kernel on both sides (natively it would pick AVX2 code that wasm cannot have), so native
 * and wasm run the same code; the kernel's name is part of the answer.
 * Timed: the parses and walks. `simdjson [quick|full]`. Built without exceptions.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "simdjson.h"

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

extern "C" {
#include "common.h"
}

static std::string make_document(int records, uint64_t seed) {
    static const char *const names[] = {"alpha", "beta", "gamma \\\"quoted\\\"", "delta\\n",
                                        "epsilon", "zeta \\u00e9", "eta", "theta"};
    std::string s = "{\"generator\":\"wasmeter\",\"records\":[";
    char buf[320];
    for (int i = 0; i < records; i++) {
        uint64_t r = wm_rand64(&seed);
        snprintf(buf, sizeof buf,
                 "%s{\"id\":%d,\"name\":\"%s\",\"score\":%u.%02u,\"active\":%s,"
                 "\"tags\":[%u,%u,%u],\"geo\":{\"lat\":%d.%03u,\"lon\":%d.%03u},"
                 "\"note\":%s}",
                 i ? "," : "", i, names[r % 8], (unsigned)((r >> 8) % 1000),
                 (unsigned)((r >> 20) % 100), (r >> 30) & 1 ? "true" : "false",
                 (unsigned)((r >> 31) % 50), (unsigned)((r >> 37) % 50),
                 (unsigned)((r >> 43) % 50), (int)((r >> 49) % 180) - 90,
                 (unsigned)((r >> 10) % 1000), (int)((r >> 52) % 360) - 180,
                 (unsigned)((r >> 14) % 1000), (r >> 60) % 3 == 0 ? "null" : "\"ok\"");
        s += buf;
    }
    s += "]}";
    return s;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const int records = 20000;
    const int rounds = full ? 160 : 8;
    std::string json = make_document(records, 5);
    simdjson::padded_string doc(json);
    simdjson::dom::parser parser;
    uint64_t sum = 0xcbf29ce484222325ull;
    long seen = 0, active = 0, nulls = 0;
    double score = 0;

    uint64_t t0 = wm_now_ns();
    for (int round = 0; round < rounds; round++) {
        simdjson::dom::element root;
        if (auto err = parser.parse(doc).get(root)) {
            fprintf(stderr, "simdjson: %s\n", simdjson::error_message(err));
            return 1;
        }
        simdjson::dom::array list;
        if (auto err = root["records"].get(list)) {
            fprintf(stderr, "simdjson: records: %s\n", simdjson::error_message(err));
            return 1;
        }
        for (simdjson::dom::element rec : list) {
            int64_t id = 0;
            std::string_view name;
            double s = 0, lat = 0;
            bool on = false;
            if (rec["id"].get(id) || rec["name"].get(name) || rec["score"].get(s) ||
                rec["active"].get(on) || rec["geo"]["lat"].get(lat)) {
                fprintf(stderr, "simdjson: record %ld is malformed\n", seen);
                return 1;
            }
            seen++;
            active += on;
            score += s;
            nulls += rec["note"].is_null();
            simdjson::dom::array tags;
            if (rec["tags"].get(tags)) {
                fprintf(stderr, "simdjson: record %ld has no tags\n", seen);
                return 1;
            }
            for (simdjson::dom::element tag : tags) {
                int64_t v = 0;
                if (tag.get(v)) return 1;
                sum = (sum ^ (uint64_t)v) * 0x100000001b3ull;
            }
            for (unsigned char c : name) sum = (sum ^ c) * 0x100000001b3ull;
            sum = (sum ^ (uint64_t)id ^ (uint64_t)(int64_t)(lat * 1000)) * 0x100000001b3ull;
        }
    }
    uint64_t t1 = wm_now_ns();

    printf("simdjson %s\n", STRINGIFY(SIMDJSON_VERSION));
    printf("document %zu bytes, %d records, %d rounds\n", json.size(), records, rounds);
    printf("records %ld active %ld nulls %ld score %.2f\n", seen, active, nulls, score);
    printf("checksum %016llx\n", (unsigned long long)sum);
    printf("kernel %s\n", simdjson::active_implementation->name().c_str());
    wm_report(t1 - t0);
    return wm_finish();
}
