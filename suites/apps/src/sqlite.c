/* sqlite.c - the `apps` suite's SQLite driver (written here; SQLite is the amalgamation
 * that the crates.io package libsqlite3-sys ships).
 *
 * On an in-memory database: insert users and orders in one transaction through prepared
 * statements, index them, look rows up by key, join and aggregate, update, and group.
 * Every step's result goes into one checksum printed with the row counts, so a runtime
 * that computes anything differently prints another answer. The timed region is all of
 * it, from sqlite3_open to sqlite3_close. `sqlite [quick|full]`.
 */
#include "common.h"
#include "sqlite3.h"

static sqlite3 *db;
static uint64_t sum = 0xcbf29ce484222325ull;

static void mix(uint64_t v) {
    for (int i = 0; i < 8; i++) {
        sum ^= (v >> (8 * i)) & 0xff;
        sum *= 0x100000001b3ull;
    }
}

static void mix_text(const unsigned char *s) {
    for (; s != NULL && *s; s++) {
        sum ^= *s;
        sum *= 0x100000001b3ull;
    }
}

static void check(int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "sqlite: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void exec(const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "sqlite: %s: %s\n", sql, err);
        exit(1);
    }
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *st = NULL;
    check(sqlite3_prepare_v2(db, sql, -1, &st, NULL), sql);
    return st;
}

/* Runs a query and mixes every column of every row into the checksum; returns the rows. */
static long query(const char *sql) {
    sqlite3_stmt *st = prepare(sql);
    long rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        rows++;
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            if (sqlite3_column_type(st, c) == SQLITE_TEXT) {
                mix_text(sqlite3_column_text(st, c));
            } else {
                mix((uint64_t)sqlite3_column_int64(st, c));
            }
        }
    }
    check(rc, sql);
    sqlite3_finalize(st);
    return rows;
}

static const char *const CITIES[] = {"Lisbon", "Oslo", "Quito", "Hanoi", "Dakar",
                                     "Perth", "Lima", "Riga", "Turin", "Osaka"};

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    const long users = full ? 200000 : 12000;
    const long orders = users * 4;
    const long lookups = users;
    uint64_t seed = 42;

    uint64_t t0 = wm_now_ns();
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "sqlite: cannot open an in-memory database\n");
        return 1;
    }
    exec("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, city TEXT, age INTEGER)");
    exec("CREATE TABLE orders(id INTEGER PRIMARY KEY, user_id INTEGER, amount INTEGER, "
         "status TEXT)");
    exec("BEGIN");
    sqlite3_stmt *ins = prepare("INSERT INTO users VALUES(?1, ?2, ?3, ?4)");
    char name[32];
    for (long i = 1; i <= users; i++) {
        uint64_t r = wm_rand64(&seed);
        snprintf(name, sizeof name, "user%08llx", (unsigned long long)(r & 0xffffffffu));
        sqlite3_bind_int64(ins, 1, i);
        sqlite3_bind_text(ins, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(ins, 3, CITIES[(r >> 32) % 10], -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 4, 18 + (long)((r >> 40) % 60));
        check(sqlite3_step(ins), "insert user");
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    ins = prepare("INSERT INTO orders(user_id, amount, status) VALUES(?1, ?2, ?3)");
    for (long i = 0; i < orders; i++) {
        uint64_t r = wm_rand64(&seed);
        sqlite3_bind_int64(ins, 1, 1 + (long)(r % (uint64_t)users));
        sqlite3_bind_int64(ins, 2, (long)((r >> 24) % 10000));
        sqlite3_bind_text(ins, 3, (r >> 50) % 3 == 0 ? "open" : "shipped", -1, SQLITE_STATIC);
        check(sqlite3_step(ins), "insert order");
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    exec("COMMIT");
    exec("CREATE INDEX orders_user ON orders(user_id)");
    exec("CREATE INDEX users_name ON users(name)");

    /* Indexed lookups: by primary key, then by the secondary index on orders. */
    sqlite3_stmt *by_id = prepare("SELECT name, age FROM users WHERE id = ?1");
    sqlite3_stmt *by_user = prepare("SELECT count(*), sum(amount) FROM orders WHERE user_id = ?1");
    long found = 0;
    for (long i = 0; i < lookups; i++) {
        long id = 1 + (long)(wm_rand64(&seed) % (uint64_t)users);
        sqlite3_bind_int64(by_id, 1, id);
        if (sqlite3_step(by_id) == SQLITE_ROW) {
            found++;
            mix_text(sqlite3_column_text(by_id, 0));
            mix((uint64_t)sqlite3_column_int64(by_id, 1));
        }
        sqlite3_reset(by_id);
        sqlite3_bind_int64(by_user, 1, id);
        check(sqlite3_step(by_user), "lookup orders");
        mix((uint64_t)sqlite3_column_int64(by_user, 0));
        mix((uint64_t)sqlite3_column_int64(by_user, 1));
        sqlite3_reset(by_user);
    }
    sqlite3_finalize(by_id);
    sqlite3_finalize(by_user);

    long joined = query("SELECT u.city, count(*), sum(o.amount) FROM users u "
                        "JOIN orders o ON o.user_id = u.id WHERE o.status = 'open' "
                        "GROUP BY u.city ORDER BY u.city");
    exec("UPDATE orders SET amount = amount + 7, status = 'shipped' "
         "WHERE status = 'open' AND amount % 5 = 0");
    long changed = sqlite3_changes(db);
    long grouped = query("SELECT age / 10, count(*), sum(amount), max(amount) FROM users u "
                         "JOIN orders o ON o.user_id = u.id GROUP BY age / 10 ORDER BY 1");
    long top = query("SELECT name, total FROM (SELECT user_id, sum(amount) AS total FROM "
                     "orders GROUP BY user_id) t JOIN users ON users.id = t.user_id "
                     "ORDER BY total DESC, name LIMIT 20");
    long like = query("SELECT count(*) FROM users WHERE name LIKE 'user0%' AND city <> 'Oslo'");
    sqlite3_close(db);
    uint64_t t1 = wm_now_ns();

    printf("sqlite %s\n", sqlite3_libversion());
    printf("users %ld orders %ld lookups %ld found %ld\n", users, orders, lookups, found);
    printf("join rows %ld updated %ld grouped rows %ld top %ld like %ld\n", joined, changed,
           grouped, top, like);
    printf("checksum %016llx\n", (unsigned long long)sum);
    wm_report(t1 - t0);
    return wm_finish();
}
