/* nbody - the n-body benchmark (Benchmarks Game style): a double-precision
 * simulation of the Jovian planets, advanced with a simple symplectic
 * integrator; prints the energy before and after with 9 decimals.  Only
 * +, -, *, / and sqrt are used, so results are IEEE-exact everywhere (as
 * long as nothing fuses multiply-adds: see the manifest). */
#include "common.h"

#include <math.h>

#define PI 3.141592653589793
#define SOLAR_MASS (4 * PI * PI)
#define DAYS_PER_YEAR 365.24
#define BODIES 5

typedef struct {
    double x, y, z, vx, vy, vz, mass;
} body;

static void advance(body *b, int n, double dt) {
    for (int i = 0; i < n; i++) {
        body *bi = &b[i];
        for (int j = i + 1; j < n; j++) {
            body *bj = &b[j];
            double dx = bi->x - bj->x, dy = bi->y - bj->y, dz = bi->z - bj->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            bi->vx -= dx * bj->mass * mag;
            bi->vy -= dy * bj->mass * mag;
            bi->vz -= dz * bj->mass * mag;
            bj->vx += dx * bi->mass * mag;
            bj->vy += dy * bi->mass * mag;
            bj->vz += dz * bi->mass * mag;
        }
    }
    for (int i = 0; i < n; i++) {
        b[i].x += dt * b[i].vx;
        b[i].y += dt * b[i].vy;
        b[i].z += dt * b[i].vz;
    }
}

static double energy(const body *b, int n) {
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        e += 0.5 * b[i].mass * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
        for (int j = i + 1; j < n; j++) {
            double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
            e -= (b[i].mass * b[j].mass) / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

static void offset_momentum(body *b, int n) {
    double px = 0, py = 0, pz = 0;
    for (int i = 0; i < n; i++) {
        px += b[i].vx * b[i].mass;
        py += b[i].vy * b[i].mass;
        pz += b[i].vz * b[i].mass;
    }
    b[0].vx = -px / SOLAR_MASS;
    b[0].vy = -py / SOLAR_MASS;
    b[0].vz = -pz / SOLAR_MASS;
}

static void init_bodies(body *b) {
    static const body start[BODIES] = {
        /* sun */
        {0, 0, 0, 0, 0, 0, SOLAR_MASS},
        /* jupiter */
        {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
         -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS},
        /* saturn */
        {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
         2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS},
        /* uranus */
        {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
         -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS},
        /* neptune */
        {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
         -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS},
    };
    memcpy(b, start, sizeof start);
    offset_momentum(b, BODIES);
}

static int selftest(void) {
    /* Benchmarks Game reference output for 1000 steps. */
    body b[BODIES];
    char text[64];
    init_bodies(b);
    snprintf(text, sizeof text, "%.9f", energy(b, BODIES));
    if (strcmp(text, "-0.169075164") != 0) return 0;
    for (int i = 0; i < 1000; i++) advance(b, BODIES, 0.01);
    snprintf(text, sizeof text, "%.9f", energy(b, BODIES));
    return strcmp(text, "-0.169087605") == 0;
}

int main(int argc, char **argv) {
    int full = wm_size(argc, argv);
    int steps = full ? 18000000 : 1000000;
    wm_selftest(selftest());

    body b[BODIES];
    init_bodies(b);
    double before = energy(b, BODIES);

    uint64_t t0 = wm_now_ns();
    for (int i = 0; i < steps; i++) advance(b, BODIES, 0.01);
    uint64_t t1 = wm_now_ns();

    printf("steps %d\n", steps);
    printf("%.9f\n%.9f\n", before, energy(b, BODIES));
    wm_report(t1 - t0);
    return wm_finish();
}
