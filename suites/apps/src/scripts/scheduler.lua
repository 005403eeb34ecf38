-- scheduler: a Richards-style round of tasks of four kinds (idle, worker, handler, device)
-- passing packets through queues by priority, written here.
local IDLE, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = 1, 2, 3, 4, 5, 6
local tasks = {}
local queueCount, holdCount, seedI = 0, 0, 0
local function append(packet, queue)
  packet.link = nil
  if queue == nil then return packet end
  local p = queue
  while p.link ~= nil do p = p.link end
  p.link = packet
  return queue
end
local function send(packet, to)
  queueCount = queueCount + 1
  local t = tasks[to]
  packet.link = nil
  packet.id = to
  t.queue = append(packet, t.queue)
  t.waiting = false
end
local function task(id, priority, fn)
  tasks[id] = { id = id, priority = priority, queue = nil, fn = fn, held = false,
                waiting = true, v1 = 0, v2 = 0, count = 0 }
end
local function run(count)
  local guard = 0
  while guard < count do
    guard = guard + 1
    local best = nil
    for _, t in ipairs(tasks) do
      if not t.held and (t.id == IDLE or not t.waiting or t.queue ~= nil)
          and (best == nil or t.priority > best.priority) then
        best = t
      end
    end
    local packet = nil
    if best.queue ~= nil then
      packet = best.queue
      best.queue = packet.link
    end
    best.waiting = best.queue == nil
    best.fn(best, packet)
  end
  return guard + 1
end
task(IDLE, 0, function(t)
  -- Runs only when nothing else can: releases the tasks that held themselves.
  seedI = (seedI * 1103515245 + 12345) % 65536
  t.v2 = t.v2 + (seedI & 7)
  for _, x in ipairs(tasks) do
    if x.held then
      x.held = false
      holdCount = holdCount + 1
    end
  end
end)
task(WORKER, 1000, function(t, p)
  if p == nil then return end
  t.v1 = (t.v1 == HANDLER_A) and HANDLER_B or HANDLER_A
  p.a1 = 0
  for i = 1, 4 do
    t.v2 = (t.v2 + 1) % 26
    p.a2[i] = t.v2
  end
  send(p, t.v1)
  -- Every 16th packet the worker holds itself until the idle task releases it.
  t.count = t.count + 1
  if t.count % 16 == 0 then t.held = true end
end)
for _, pair in ipairs({ { HANDLER_A, DEVICE_A }, { HANDLER_B, DEVICE_B } }) do
  local id, dev = pair[1], pair[2]
  task(id, 2000 + id - 1, function(t, p)
    if p == nil then return end
    if p.kind == 1 then
      p.a1 = p.a1 + p.a2[p.a1 % 4 + 1]
      send(p, dev)
    else
      p.kind = 1
      send(p, WORKER)
    end
  end)
end
for _, id in ipairs({ DEVICE_A, DEVICE_B }) do
  task(id, 4000 + id - 1, function(t, p)
    if p == nil then return end
    t.v1 = t.v1 + p.a1
    p.kind = 0
    send(p, id == DEVICE_A and HANDLER_A or HANDLER_B)
  end)
end
for i = 0, 11 do
  local to = (i % 3 == 0) and WORKER or ((i % 2 == 1) and HANDLER_A or HANDLER_B)
  send({ link = nil, id = 0, kind = i % 2, a1 = 0, a2 = { 0, 0, 0, 0 } }, to)
end
local steps = run(100000 * SCALE)
return "steps " .. steps .. " queued " .. queueCount .. " held " .. holdCount .. " idle " ..
  tasks[IDLE].v2 .. " devices " .. tasks[DEVICE_A].v1 .. "/" .. tasks[DEVICE_B].v1
