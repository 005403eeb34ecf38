// fannkuch-redux in AssemblyScript (WASI through @assemblyscript/wasi-shim): the benchmarks
// game's algorithm, with its usual answer (a checksum, then the most flips) and wasmeter's
// self-timing line. Usage: fannkuch-as.wasm [N] (default 9).

function fannkuch(n: i32, out: StaticArray<i64>): void {
  const perm1 = new StaticArray<i32>(n);
  const perm = new StaticArray<i32>(n);
  const count = new StaticArray<i32>(n);
  for (let i = 0; i < n; i++) perm1[i] = i;
  let checksum: i64 = 0;
  let maxFlips: i64 = 0;
  let permCount = 0;
  let r = n;
  while (true) {
    for (; r != 1; r--) count[r - 1] = r;
    for (let i = 0; i < n; i++) perm[i] = perm1[i];
    let flips: i64 = 0;
    for (let k = perm[0]; k != 0; k = perm[0]) {
      for (let i = 0, j = k; i < j; i++, j--) {
        const t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      flips++;
    }
    if (flips > maxFlips) maxFlips = flips;
    if (permCount % 2 == 0) checksum += flips;
    else checksum -= flips;
    while (true) {
      if (r == n) {
        out[0] = checksum;
        out[1] = maxFlips;
        return;
      }
      const perm0 = perm1[0];
      for (let i = 0; i < r; i++) perm1[i] = perm1[i + 1];
      perm1[r] = perm0;
      count[r]--;
      if (count[r] > 0) break;
      r++;
    }
    permCount++;
  }
}

let n = 9;
if (process.argv.length > 1) {
  n = I32.parseInt(process.argv[1]);
  if (n < 1 || n > 12) {
    console.error(`fannkuch: N must be 1 to 12, not '${process.argv[1]}'`);
    process.exit(2);
  }
}
const t0 = process.hrtime();
const result = new StaticArray<i64>(2);
fannkuch(n, result);
const ns = process.hrtime() - t0;
console.log(`${result[0]}\nPfannkuchen(${n}) = ${result[1]}`);
console.log(`wasmeter:time_ns=${ns}`);
