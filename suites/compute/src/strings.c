/* strings - string processing on 256 KiB of generated English-like text,
 * repeated: strtok_r tokenising, word counting in a string-keyed hash
 * table, strstr searches, strchr line counting and building a
 * capitalised copy with strlen/memcpy.  Prints the counts. */
#include "common.h"

#define TEXT_SIZE (1u << 18)
#define TABLE_BITS 14

static const char *const VOCAB[] = {
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an",
    "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been",
    "if", "more", "when", "will", "would", "who", "so", "no", "runtime", "memory", "compiler",
    "instance", "module", "function", "benchmark", "measurement", "iteration", "variation",
    "instantiation", "configuration", "translation", "interpretation", "optimisation",
    "allocation", "specification", "implementation", "webassembly", "assembly", "native",
    "machine", "sandbox", "linear", "table", "global", "export", "import", "section",
    "validation", "execution", "throughput", "latency", "percentile", "distribution",
};
#define NVOCAB (sizeof VOCAB / sizeof VOCAB[0])

static void make_text(char *text, size_t cap, uint64_t seed) {
    uint64_t s = seed;
    size_t pos = 0;
    for (;;) {
        int nwords = 3 + (int)(wm_rand64(&s) % 14);
        char sentence[512];
        size_t len = 0;
        for (int k = 0; k < nwords; k++) {
            uint64_t v = wm_rand64(&s);
            size_t w = (size_t)(((v & 0xffff) % NVOCAB) * ((v >> 16 & 0xffff) % NVOCAB) / NVOCAB);
            const char *word = VOCAB[w];
            size_t wl = strlen(word);
            memcpy(sentence + len, word, wl);
            if (k == 0) sentence[len] = (char)(sentence[len] - 'a' + 'A');
            len += wl;
            uint64_t p = (v >> 32) % 20;
            if (k + 1 < nwords) sentence[len++] = p == 0 ? ',' : p == 1 ? ';' : ' ';
            if (k + 1 < nwords && p < 2) sentence[len++] = ' ';
        }
        sentence[len++] = (wm_rand64(&s) % 6 == 0) ? '?' : '.';
        sentence[len++] = (wm_rand64(&s) % 4 == 0) ? '\n' : ' ';
        if (pos + len + 1 > cap) break;
        memcpy(text + pos, sentence, len);
        pos += len;
    }
    text[pos] = 0;
}

typedef struct {
    const char *word; /* points into the tokenised copy */
    uint32_t count;
} entry;

static uint32_t hash_str(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

typedef struct {
    size_t lines, words, unique, needles[4], letters;
    uint32_t top_count;
    char top_word[32];
} result;

static void process(const char *text, size_t len, char *work, char *caps, entry *table, result *res) {
    static const char *const needles[4] = {"the ", "tion", "memory, ", "s a"};
    memset(res, 0, sizeof *res);
    /* line count */
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++) res->lines++;
    /* needle counts */
    for (int k = 0; k < 4; k++) {
        size_t nl = strlen(needles[k]);
        for (const char *p = text; (p = strstr(p, needles[k])) != NULL; p += nl) res->needles[k]++;
    }
    /* capitalised copy: every word starts with a capital letter */
    memcpy(work, text, len + 1);
    char *save = NULL, *out = caps;
    memset(table, 0, sizeof(entry) << TABLE_BITS);
    for (char *tok = strtok_r(work, " ,;.?\n", &save); tok; tok = strtok_r(NULL, " ,;.?\n", &save)) {
        res->words++;
        size_t tl = strlen(tok);
        memcpy(out, tok, tl);
        if (out[0] >= 'a' && out[0] <= 'z') out[0] = (char)(out[0] - 'a' + 'A');
        out += tl;
        *out++ = ' ';
        /* count words case-insensitively: lower-case the first letter in place */
        if (tok[0] >= 'A' && tok[0] <= 'Z') tok[0] = (char)(tok[0] - 'A' + 'a');
        uint32_t h = hash_str(tok) & ((1u << TABLE_BITS) - 1);
        while (table[h].word && strcmp(table[h].word, tok) != 0) h = (h + 1) & ((1u << TABLE_BITS) - 1);
        if (!table[h].word) {
            table[h].word = tok;
            res->unique++;
        }
        table[h].count++;
    }
    *out = 0;
    res->letters = strlen(caps);
    for (size_t h = 0; h < (1u << TABLE_BITS); h++) {
        if (!table[h].word) continue;
        if (table[h].count > res->top_count ||
            (table[h].count == res->top_count && strcmp(table[h].word, res->top_word) < 0)) {
            res->top_count = table[h].count;
            snprintf(res->top_word, sizeof res->top_word, "%s", table[h].word);
        }
    }
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 720 : 40;
    char *text = wm_alloc(TEXT_SIZE);
    char *work = wm_alloc(TEXT_SIZE);
    char *caps = wm_alloc(TEXT_SIZE * 2);
    entry *table = wm_alloc(sizeof(entry) << TABLE_BITS);
    make_text(text, TEXT_SIZE, 12);
    size_t len = strlen(text);
    result res;
    uint64_t check = 0;

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) {
        /* each round sees slightly different text */
        text[(r * 7919u) % len] = (r & 1) ? ' ' : '\n';
        process(text, len, work, caps, table, &res);
        check = check * 31 + res.words * 7 + res.unique * 3 + res.letters + res.needles[3];
    }
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %zu chars\n", rounds, len);
    printf("lines %zu words %zu unique %zu letters %zu\n", res.lines, res.words, res.unique,
           res.letters);
    printf("top word '%s' x%u\n", res.top_word, res.top_count);
    printf("needles %zu %zu %zu %zu\n", res.needles[0], res.needles[1], res.needles[2],
           res.needles[3]);
    printf("checksum %016llx copy %016llx\n", (unsigned long long)check,
           (unsigned long long)wm_fnv64(caps, res.letters));
    wm_report(t1 - t0);
    free(table);
    free(caps);
    free(work);
    free(text);
    return wm_finish();
}
