-- objects: binary trees built, checked and dropped (the garbage collector's work), then a
-- table of records updated by key. SCALE is set by the driver.
local function bottomUp(depth)
  if depth == 0 then return { left = false, right = false } end
  return { left = bottomUp(depth - 1), right = bottomUp(depth - 1) }
end
local function check(t)
  if not t.left then return 1 end
  return 1 + check(t.left) + check(t.right)
end
local nodes = 0
local maxDepth = 12 + (SCALE > 1 and 2 or 0)
local longLived = bottomUp(maxDepth)
for d = 4, maxDepth, 2 do
  local iterations = (1 << (maxDepth - d + 4)) * SCALE
  for _ = 1, iterations // 32 do nodes = nodes + check(bottomUp(d)) end
end
nodes = nodes + check(longLived)
local records, size = {}, 0
for i = 0, 10000 * SCALE - 1 do
  local key = "k" .. ((i * 7919) % 5003)
  local r = records[key]
  if r == nil then
    records[key] = { count = 1, total = i % 97, tags = { i % 3 } }
    size = size + 1
  else
    r.count = r.count + 1
    r.total = r.total + i % 97
    if #r.tags < 8 then r.tags[#r.tags + 1] = i % 3 end
  end
end
local total = 0
for k, r in pairs(records) do total = total + r.count * 3 + r.total + #r.tags + #k end
return "nodes " .. nodes .. " records " .. size .. " total " .. total
