-- numeric: a sieve, integer mixing, and a fixed-order floating-point sum (spectral norm).
local limit = 100000 * SCALE
local sieve = {}
local primes = 0
for i = 2, limit do
  if not sieve[i] then
    primes = primes + 1
    for j = i * i, limit, i do sieve[j] = true end
  end
end
local x = 1
for i = 0, 150000 * SCALE - 1 do x = (x * 48271 + i) % 2147483647 end
local function a(i, j)
  return 1.0 / (((i + j) * (i + j + 1)) // 2 + i + 1)
end
local function times(v, out, n, transpose)
  for i = 0, n - 1 do
    local s = 0.0
    for j = 0, n - 1 do
      if transpose then s = s + a(j, i) * v[j] else s = s + a(i, j) * v[j] end
    end
    out[i] = s
  end
end
local n = 100 * (SCALE > 1 and 3 or 1)
local u, v, t = {}, {}, {}
for i = 0, n - 1 do u[i], v[i], t[i] = 1.0, 0.0, 0.0 end
for _ = 1, 10 do
  times(u, t, n, false)
  times(t, v, n, true)
  times(v, t, n, false)
  times(t, u, n, true)
end
local vBv, vv = 0.0, 0.0
for i = 0, n - 1 do
  vBv = vBv + u[i] * v[i]
  vv = vv + v[i] * v[i]
end
return "primes " .. primes .. " lcg " .. x .. " norm " .. string.format("%.9f", math.sqrt(vBv / vv))
