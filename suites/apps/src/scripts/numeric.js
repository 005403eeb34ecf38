// numeric: a sieve, integer mixing, and a fixed-order floating-point sum (spectral norm).
const limit = 100000 * SCALE;
const sieve = new Uint8Array(limit + 1);
let primes = 0;
for (let i = 2; i <= limit; i++) {
  if (sieve[i] === 0) {
    primes++;
    for (let j = i * i; j <= limit; j += i) sieve[j] = 1;
  }
}
let x = 1;
for (let i = 0; i < 150000 * SCALE; i++) x = (x * 48271 + i) % 2147483647;
function a(i, j) {
  return 1 / (((i + j) * (i + j + 1)) / 2 + i + 1);
}
function times(v, out, n, transpose) {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += (transpose ? a(j, i) : a(i, j)) * v[j];
    out[i] = s;
  }
}
const n = 100 * (SCALE > 1 ? 3 : 1);
let u = new Float64Array(n).fill(1);
const v = new Float64Array(n);
const t = new Float64Array(n);
for (let k = 0; k < 10; k++) {
  times(u, t, n, false);
  times(t, v, n, true);
  times(v, t, n, false);
  times(t, u, n, true);
}
let vBv = 0;
let vv = 0;
for (let i = 0; i < n; i++) {
  vBv += u[i] * v[i];
  vv += v[i] * v[i];
}
"primes " + primes + " lcg " + x + " norm " + Math.sqrt(vBv / vv).toFixed(9);
