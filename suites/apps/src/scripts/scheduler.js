// scheduler: a Richards-style round of tasks of four kinds (idle, worker, handler, device)
// passing packets through queues by priority, written here.
const IDLE = 0, WORKER = 1, HANDLER_A = 2, HANDLER_B = 3, DEVICE_A = 4, DEVICE_B = 5;
class Packet {
  constructor(link, id, kind) {
    this.link = link;
    this.id = id;
    this.kind = kind;
    this.a1 = 0;
    this.a2 = new Array(4).fill(0);
  }
}
function append(packet, queue) {
  packet.link = null;
  if (queue === null) return packet;
  let p = queue;
  while (p.link !== null) p = p.link;
  p.link = packet;
  return queue;
}
class Task {
  constructor(id, priority, queue, fn) {
    this.id = id;
    this.priority = priority;
    this.queue = queue;
    this.fn = fn;
    this.held = false;
    this.waiting = queue === null;
    this.v1 = 0;
    this.v2 = 0;
    this.count = 0;
  }
}
const tasks = [];
let queueCount = 0, holdCount = 0, seedI = 0;
function send(packet, to) {
  queueCount++;
  const t = tasks[to];
  packet.link = null;
  packet.id = to;
  t.queue = append(packet, t.queue);
  t.waiting = false;
}
function run(count) {
  let guard = 0;
  while (guard++ < count) {
    let best = null;
    for (const t of tasks) {
      if (!t.held && (t.id === IDLE || !t.waiting || t.queue !== null) && (best === null || t.priority > best.priority)) best = t;
    }
    let packet = null;
    if (best.queue !== null) {
      packet = best.queue;
      best.queue = packet.link;
    }
    best.waiting = best.queue === null;
    best.fn(best, packet);
  }
  return guard;
}
tasks[IDLE] = new Task(IDLE, 0, null, (t) => {
  // Runs only when nothing else can: releases the tasks that held themselves.
  seedI = (seedI * 1103515245 + 12345) % 65536;
  t.v2 += seedI & 7;
  for (const x of tasks) {
    if (x.held) {
      x.held = false;
      holdCount++;
    }
  }
});
tasks[WORKER] = new Task(WORKER, 1000, null, (t, p) => {
  if (p === null) return;
  t.v1 = t.v1 === HANDLER_A ? HANDLER_B : HANDLER_A;
  p.a1 = 0;
  for (let i = 0; i < 4; i++) {
    t.v2 = (t.v2 + 1) % 26;
    p.a2[i] = t.v2;
  }
  send(p, t.v1);
  // Every 16th packet the worker holds itself until the idle task releases it.
  if (++t.count % 16 === 0) t.held = true;
});
for (const [id, dev] of [[HANDLER_A, DEVICE_A], [HANDLER_B, DEVICE_B]]) {
  tasks[id] = new Task(id, 2000 + id, null, (t, p) => {
    if (p === null) return;
    if (p.kind === 1) {
      p.a1 += p.a2[p.a1 % 4];
      send(p, dev);
    } else {
      p.kind = 1;
      send(p, WORKER);
    }
  });
}
for (const id of [DEVICE_A, DEVICE_B]) {
  tasks[id] = new Task(id, 4000 + id, null, (t, p) => {
    if (p === null) return;
    t.v1 += p.a1;
    p.kind = 0;
    send(p, id === DEVICE_A ? HANDLER_A : HANDLER_B);
  });
}
for (let i = 0; i < 12; i++) send(new Packet(null, 0, i % 2), i % 3 === 0 ? WORKER : i % 2 ? HANDLER_A : HANDLER_B);
const steps = run(100000 * SCALE);
"steps " + steps + " queued " + queueCount + " held " + holdCount + " idle " + tasks[IDLE].v2 + " devices " + tasks[DEVICE_A].v1 + "/" + tasks[DEVICE_B].v1;
