// fannkuch-redux in Go (GOOS=wasip1 GOARCH=wasm): the benchmarks game's algorithm, with
// its usual answer (a checksum, then the most flips) and wasmeter's self-timing line.
// Usage: fannkuch-go.wasm [N] (default 9).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func fannkuch(n int) (checksum, maxFlips int) {
	perm1 := make([]int, n)
	for i := range perm1 {
		perm1[i] = i
	}
	perm := make([]int, n)
	count := make([]int, n)
	permCount := 0
	r := n
	for {
		for ; r != 1; r-- {
			count[r-1] = r
		}
		copy(perm, perm1)
		flips := 0
		for k := perm[0]; k != 0; k = perm[0] {
			for i, j := 0, k; i < j; i, j = i+1, j-1 {
				perm[i], perm[j] = perm[j], perm[i]
			}
			flips++
		}
		if flips > maxFlips {
			maxFlips = flips
		}
		if permCount%2 == 0 {
			checksum += flips
		} else {
			checksum -= flips
		}
		for {
			if r == n {
				return checksum, maxFlips
			}
			perm0 := perm1[0]
			copy(perm1[:r], perm1[1:r+1])
			perm1[r] = perm0
			count[r]--
			if count[r] > 0 {
				break
			}
			r++
		}
		permCount++
	}
}

func main() {
	n := 9
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v < 1 || v > 12 {
			fmt.Fprintf(os.Stderr, "fannkuch: N must be 1 to 12, not %q\n", os.Args[1])
			os.Exit(2)
		}
		n = v
	}
	t0 := time.Now()
	checksum, flips := fannkuch(n)
	ns := time.Since(t0).Nanoseconds()
	fmt.Printf("%d\nPfannkuchen(%d) = %d\n", checksum, n, flips)
	fmt.Printf("wasmeter:time_ns=%d\n", ns)
}
