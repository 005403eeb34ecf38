-- strings: words generated from a seed, joined, split, searched, replaced and hashed.
local seed = 12345
local function next()
  seed = (seed * 48271) % 2147483647
  return seed // 256
end
local syllables = { "ka", "lo", "mi", "ne", "tu", "ra", "shi", "vo", "qe", "zu" }
local words = {}
for i = 1, 15000 * SCALE do
  local w = {}
  for j = 1, 1 + next() % 4 do w[j] = syllables[1 + next() % 10] end
  words[i] = table.concat(w)
end
local text = table.concat(words, " ")
local parts, counts, distinct = {}, {}, 0
for p in text:gmatch("%S+") do parts[#parts + 1] = p end
local longest, hits = "", 0
for _, p in ipairs(parts) do
  if #p > #longest or (#p == #longest and p < longest) then longest = p end
  if p:find("shi", 1, true) then hits = hits + 1 end
  if counts[p] == nil then distinct = distinct + 1 end
  counts[p] = (counts[p] or 0) + 1
end
local upper = text:sub(1, 200000):upper():gsub("KA", "-")
local hash = 0
for i = 1, #upper do hash = (hash * 31 + upper:byte(i)) % 1000000007 end
local padded = {}
for i = 1, math.min(5000, #parts) do padded[i] = string.format("%05d:%s", i - 1, parts[i]) end
local joined = table.concat(padded, ",")
return "words " .. #parts .. " distinct " .. distinct .. " shi " .. hits .. " longest " ..
  longest .. " hash " .. hash .. " padded " .. #joined
