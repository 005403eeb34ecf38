// An S3-compatible server on loopback for wasmeter's tests (history over a results
// directory in S3): gofakes3 over an in-memory backend, with the bucket given created.
// MinIO, the usual choice, is not served by the Go module proxy here (AGPL).
//
//	s3server -addr 127.0.0.1:0 -bucket runs [-seed DIR -prefix P]
//
// puts every file under DIR into the bucket as P/<path under DIR> (as a team's CI would
// copy its results directory), then prints "listening on 127.0.0.1:PORT" once it accepts
// connections.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (loopback only)")
	bucket := flag.String("bucket", "runs", "bucket to create")
	seed := flag.String("seed", "", "directory whose files are put into the bucket first")
	prefix := flag.String("prefix", "", "key prefix of the seeded files")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !(host == "127.0.0.1" || host == "::1" || host == "localhost") {
		fmt.Fprintf(os.Stderr, "s3server: %s: loopback addresses only\n", *addr)
		os.Exit(2)
	}
	backend := s3mem.New()
	if err := backend.CreateBucket(*bucket); err != nil {
		log.Fatalf("s3server: create bucket %s: %v", *bucket, err)
	}
	if *seed != "" {
		err := filepath.Walk(*seed, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			rel, err := filepath.Rel(*seed, path)
			if err != nil {
				return err
			}
			key := filepath.ToSlash(rel)
			if *prefix != "" {
				key = strings.Trim(*prefix, "/") + "/" + key
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = backend.PutObject(*bucket, key, map[string]string{}, f, info.Size(), nil)
			return err
		})
		if err != nil {
			log.Fatalf("s3server: seed %s: %v", *seed, err)
		}
	}
	faker := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("s3server: %v", err)
	}
	fmt.Printf("listening on %s\n", strings.TrimSpace(ln.Addr().String()))
	os.Stdout.Sync()
	log.Fatal(http.Serve(ln, faker.Server()))
}
