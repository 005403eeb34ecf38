"""A threaded HTTP/1.1 keep-alive server for wasmeter's HTTP tests, on loopback only.

Usage: http_test_server.py PORT [--slow-over N --slow-s S] [--busy] [--serial]

Every path answers 200 "ok\n". At "/" only:
  --slow-over N --slow-s S   with more than N connections open, each request first waits
                             S seconds (a server that saturates at N connections);
  --busy                     each request runs a CPU-bound child process, CGI-style;
  --serial                   requests are served one at a time, 10 ms each (about 100/s
                             however many connections wait).
"""
import argparse
import http.server
import socketserver
import subprocess
import threading
import time

args = argparse.ArgumentParser()
args.add_argument("port", type=int)
args.add_argument("--slow-over", type=int, default=None)
args.add_argument("--slow-s", type=float, default=0.0)
args.add_argument("--busy", action="store_true")
args.add_argument("--serial", action="store_true")
opts = args.parse_args()

lock = threading.Lock()
active = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        global active
        super().setup()
        with lock:
            active += 1

    def finish(self):
        global active
        try:
            super().finish()
        finally:
            with lock:
                active -= 1

    def do_GET(self):
        if self.path == "/":
            if opts.slow_over is not None:
                # Let a level's connections all open before counting them.
                time.sleep(0.02)
                with lock:
                    n = active
                if n > opts.slow_over:
                    time.sleep(opts.slow_s)
            if opts.busy:
                subprocess.run(["sh", "-c", "i=0; while [ $i -lt 6000 ]; do i=$((i+1)); done"])
            if opts.serial:
                with lock:
                    time.sleep(0.01)
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 128


Server(("127.0.0.1", opts.port), Handler).serve_forever()
