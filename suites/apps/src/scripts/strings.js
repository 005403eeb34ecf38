// strings: words generated from a seed, joined, split, searched, replaced and hashed.
let seed = 12345;
function next() {
  seed = (seed * 48271) % 2147483647;
  return Math.floor(seed / 256);
}
const syllables = ["ka", "lo", "mi", "ne", "tu", "ra", "shi", "vo", "qe", "zu"];
let words = [];
for (let i = 0; i < 15000 * SCALE; i++) {
  let w = "";
  const n = 1 + (next() % 4);
  for (let j = 0; j < n; j++) w += syllables[next() % 10];
  words.push(w);
}
const text = words.join(" ");
const parts = text.split(" ");
let longest = "";
let hits = 0;
const counts = {};
for (const p of parts) {
  if (p.length > longest.length || (p.length === longest.length && p < longest)) longest = p;
  if (p.indexOf("shi") >= 0) hits++;
  counts[p] = (counts[p] || 0) + 1;
}
const upper = text.slice(0, 200000).toUpperCase().replaceAll("KA", "-");
let hash = 0;
for (let i = 0; i < upper.length; i++) hash = (hash * 31 + upper.charCodeAt(i)) % 1000000007;
const distinct = Object.keys(counts).length;
const padded = parts.slice(0, 5000).map((p, i) => String(i).padStart(5, "0") + ":" + p).join(",");
"words " + parts.length + " distinct " + distinct + " shi " + hits + " longest " + longest +
  " hash " + hash + " padded " + padded.length;
