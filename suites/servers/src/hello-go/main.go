// hello-go - the `servers` suite's Go server: GET / answers "hello, world\n" (text/plain),
// anything else 404. One source for every runtime:
//
//	native:      go build -o hello-go .             listens on 127.0.0.1:$PORT
//	wasm (WASI): GOOS=wasip1 GOARCH=wasm go build   takes a listening socket the runtime
//	             pre-opened as file descriptor 3 (wasmtime: -S tcplisten=127.0.0.1:PORT)
//
// Only the standard library; net/http on wasip1 serves one goroutine at a time (the port
// has no threads), which is part of what the suite measures.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
)

var hello = []byte("hello, world\n")

func handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain")
	h.Set("Content-Length", strconv.Itoa(len(hello)))
	w.Write(hello)
}

func listener() (net.Listener, error) {
	if runtime.GOOS == "wasip1" {
		// The first descriptor after stdin, stdout and stderr: wasmtime's -S tcplisten
		// (and other runtimes' pre-opened sockets) put the listening socket there.
		f := os.NewFile(3, "listener")
		if f == nil {
			return nil, fmt.Errorf("no pre-opened socket at fd 3")
		}
		if err := syscall.SetNonblock(3, true); err != nil {
			return nil, fmt.Errorf("fd 3: %w", err)
		}
		return net.FileListener(f)
	}
	port := os.Getenv("PORT")
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return nil, fmt.Errorf("PORT must be a TCP port, got %q", port)
	}
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
}

func main() {
	l, err := listener()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hello-go:", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "hello-go: listening on %s\n", l.Addr())
	// Exit 0 on SIGTERM or SIGINT, like the JS server. Not on wasip1: no signal reaches the
	// guest there (the runtime's process just ends), and os/signal's watcher goroutine
	// keeps the wasip1 scheduler from ever serving a request.
	if runtime.GOOS != "wasip1" {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
		go func() {
			<-stop
			os.Exit(0)
		}()
	}
	err = http.Serve(l, http.HandlerFunc(handle))
	fmt.Fprintln(os.Stderr, "hello-go:", err)
	os.Exit(1)
}
