// objects: binary trees built, checked and dropped (the garbage collector's work), then a
// map of records updated by key. SCALE is set by the driver.
function bottomUp(depth) {
  if (depth === 0) return { left: null, right: null };
  return { left: bottomUp(depth - 1), right: bottomUp(depth - 1) };
}
function check(t) {
  return t.left === null ? 1 : 1 + check(t.left) + check(t.right);
}
let nodes = 0;
const maxDepth = 12 + (SCALE > 1 ? 2 : 0);
const longLived = bottomUp(maxDepth);
for (let d = 4; d <= maxDepth; d += 2) {
  const iterations = (1 << (maxDepth - d + 4)) * SCALE;
  for (let i = 0; i < iterations >> 5; i++) nodes += check(bottomUp(d));
}
nodes += check(longLived);
const records = new Map();
for (let i = 0; i < 10000 * SCALE; i++) {
  const key = "k" + ((i * 7919) % 5003);
  const r = records.get(key);
  if (r === undefined) records.set(key, { count: 1, total: i % 97, tags: [i % 3] });
  else {
    r.count++;
    r.total += i % 97;
    if (r.tags.length < 8) r.tags.push(i % 3);
  }
}
let total = 0;
for (const [k, r] of records) total += r.count * 3 + r.total + r.tags.length + k.length;
"nodes " + nodes + " records " + records.size + " total " + total;
