/* hashmap - a chained hash map with one malloc'd node per entry (variable
 * payload size) that grows by rehashing: inserts, lookups, updates and
 * deletes of pseudorandom 64-bit keys, then freeing everything, repeated.
 * Prints operation counts and a checksum. */
#include "common.h"

typedef struct node {
    struct node *next;
    uint64_t key;
    uint64_t value;
    uint32_t len;
    uint8_t payload[]; /* len bytes */
} node;

typedef struct {
    node **slots;
    size_t mask;
    size_t count;
} map;

static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

static void map_init(map *m) {
    m->mask = 15;
    m->count = 0;
    m->slots = calloc(m->mask + 1, sizeof(node *));
    if (m->slots == NULL) exit(3);
}

static void map_grow(map *m) {
    size_t nmask = m->mask * 2 + 1;
    node **ns = calloc(nmask + 1, sizeof(node *));
    if (ns == NULL) exit(3);
    for (size_t i = 0; i <= m->mask; i++) {
        node *e = m->slots[i];
        while (e) {
            node *next = e->next;
            size_t h = (size_t)(mix(e->key) & nmask);
            e->next = ns[h];
            ns[h] = e;
            e = next;
        }
    }
    free(m->slots);
    m->slots = ns;
    m->mask = nmask;
}

static node *map_find(const map *m, uint64_t key) {
    node *e = m->slots[mix(key) & m->mask];
    while (e && e->key != key) e = e->next;
    return e;
}

/* Inserts or replaces; a replacement gets a new node of a new size.
 * Returns 1 when the key was new. */
static int map_put(map *m, uint64_t key, uint64_t value) {
    uint32_t len = 8 + (uint32_t)(value % 57);
    node *n = wm_alloc(sizeof(node) + len);
    n->key = key;
    n->value = value;
    n->len = len;
    for (uint32_t i = 0; i < len; i++) n->payload[i] = (uint8_t)(value >> (i % 8 * 8));
    node **pp = &m->slots[mix(key) & m->mask];
    while (*pp && (*pp)->key != key) pp = &(*pp)->next;
    if (*pp) {
        n->next = (*pp)->next;
        free(*pp);
        *pp = n;
        return 0;
    }
    n->next = NULL;
    *pp = n;
    if (++m->count > m->mask + 1) map_grow(m);
    return 1;
}

static int map_del(map *m, uint64_t key) {
    node **pp = &m->slots[mix(key) & m->mask];
    while (*pp && (*pp)->key != key) pp = &(*pp)->next;
    if (*pp == NULL) return 0;
    node *dead = *pp;
    *pp = dead->next;
    free(dead);
    m->count--;
    return 1;
}

static void map_free(map *m) {
    for (size_t i = 0; i <= m->mask; i++) {
        node *e = m->slots[i];
        while (e) {
            node *next = e->next;
            free(e);
            e = next;
        }
    }
    free(m->slots);
}

typedef struct {
    uint64_t inserted, replaced, hits, misses, deleted, final_count, check;
} stats;

static void workload(unsigned keys, uint64_t seed, stats *st) {
    map m;
    map_init(&m);
    uint64_t s = seed;
    /* keys come from a range about 1.5x the insert count: some repeat */
    uint64_t range = (uint64_t)keys * 3 / 2;
    for (unsigned i = 0; i < keys; i++) {
        uint64_t k = wm_rand64(&s) % range;
        if (map_put(&m, k * 0x9e3779b97f4a7c15ull, wm_rand64(&s)))
            st->inserted++;
        else
            st->replaced++;
    }
    for (unsigned i = 0; i < 2 * keys; i++) {
        uint64_t k = (wm_rand64(&s) % range) * 0x9e3779b97f4a7c15ull;
        node *e = map_find(&m, k);
        if (e) {
            st->hits++;
            st->check += e->value ^ e->payload[e->len - 1];
        } else {
            st->misses++;
        }
    }
    for (unsigned i = 0; i < keys / 2; i++) {
        uint64_t k = (wm_rand64(&s) % range) * 0x9e3779b97f4a7c15ull;
        st->deleted += (uint64_t)map_del(&m, k);
    }
    for (unsigned i = 0; i < keys / 2; i++) {
        uint64_t k = wm_rand64(&s) % range;
        if (map_put(&m, k * 0x9e3779b97f4a7c15ull, wm_rand64(&s)))
            st->inserted++;
        else
            st->replaced++;
    }
    /* a walk in slot order: the order is fixed by the keys, not addresses */
    for (size_t i = 0; i <= m.mask; i++)
        for (node *e = m.slots[i]; e; e = e->next) st->check = st->check * 31 + (e->value >> 7) + e->len;
    st->final_count += m.count;
    map_free(&m);
}

static int selftest(void) {
    map m;
    map_init(&m);
    int ok = 1;
    for (uint64_t k = 0; k < 1000; k++) ok &= map_put(&m, k, k * 3);
    ok &= map_put(&m, 5, 99) == 0;
    ok &= map_find(&m, 5) != NULL && map_find(&m, 5)->value == 99;
    ok &= map_find(&m, 1000) == NULL;
    for (uint64_t k = 0; k < 1000; k += 2) ok &= map_del(&m, k);
    ok &= map_del(&m, 0) == 0 && m.count == 500;
    ok &= map_find(&m, 7) != NULL && map_find(&m, 7)->value == 21;
    map_free(&m);
    return ok;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    unsigned rounds = full ? 40 : 2;
    const unsigned keys = 100000;
    wm_selftest(selftest());

    stats st;
    memset(&st, 0, sizeof st);

    uint64_t t0 = wm_now_ns();
    for (unsigned r = 0; r < rounds; r++) workload(keys, 100 + r, &st);
    uint64_t t1 = wm_now_ns();

    printf("rounds %u of %u keys\n", rounds, keys);
    printf("inserted %llu replaced %llu hits %llu misses %llu deleted %llu left %llu\n",
           (unsigned long long)st.inserted, (unsigned long long)st.replaced,
           (unsigned long long)st.hits, (unsigned long long)st.misses,
           (unsigned long long)st.deleted, (unsigned long long)st.final_count);
    printf("checksum %016llx\n", (unsigned long long)st.check);
    wm_report(t1 - t0);
    return wm_finish();
}
