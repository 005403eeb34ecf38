//! fannkuch-redux in Zig (wasm32-wasi): the benchmarks game's algorithm, with its usual
//! answer (a checksum, then the most flips) and wasmeter's self-timing line.
//! Usage: fannkuch-zig.wasm [N] (default 9).
const std = @import("std");

fn fannkuch(n: usize, checksum: *i64, max_flips: *i64) void {
    var perm1: [12]usize = undefined;
    var perm: [12]usize = undefined;
    var count: [12]usize = undefined;
    for (0..n) |i| perm1[i] = i;
    var perm_count: usize = 0;
    var r: usize = n;
    checksum.* = 0;
    max_flips.* = 0;
    while (true) {
        while (r != 1) : (r -= 1) count[r - 1] = r;
        @memcpy(perm[0..n], perm1[0..n]);
        var flips: i64 = 0;
        var k = perm[0];
        while (k != 0) : (k = perm[0]) {
            var i: usize = 0;
            var j: usize = k;
            while (i < j) : ({
                i += 1;
                j -= 1;
            }) std.mem.swap(usize, &perm[i], &perm[j]);
            flips += 1;
        }
        if (flips > max_flips.*) max_flips.* = flips;
        if (perm_count % 2 == 0) checksum.* += flips else checksum.* -= flips;
        while (true) {
            if (r == n) return;
            const perm0 = perm1[0];
            for (0..r) |i| perm1[i] = perm1[i + 1];
            perm1[r] = perm0;
            count[r] -= 1;
            if (count[r] > 0) break;
            r += 1;
        }
        perm_count += 1;
    }
}

pub fn main() !void {
    const alloc = std.heap.page_allocator;
    const args = try std.process.argsAlloc(alloc);
    defer std.process.argsFree(alloc, args);
    var n: usize = 9;
    if (args.len > 1) {
        n = std.fmt.parseInt(usize, args[1], 10) catch 0;
        if (n < 1 or n > 12) {
            std.debug.print("fannkuch: N must be 1 to 12, not '{s}'\n", .{args[1]});
            std.process.exit(2);
        }
    }
    const t0 = try std.time.Instant.now();
    var checksum: i64 = 0;
    var flips: i64 = 0;
    fannkuch(n, &checksum, &flips);
    const ns = (try std.time.Instant.now()).since(t0);
    const out = std.io.getStdOut().writer();
    try out.print("{d}\nPfannkuchen({d}) = {d}\n", .{ checksum, n, flips });
    try out.print("wasmeter:time_ns={d}\n", .{ns});
}
