# config.capnp - workerd config for the `servers` suite: one socket "http" serving worker.js.
#
#   workerd serve config.capnp --socket-addr http=127.0.0.1:PORT
#
# The address below is only a default: wasmeter always passes --socket-addr with its {port}.
# compatibilityDate is pinned (workerd refuses a date later than its own build date, and a
# date decides which behaviour changes apply), so it stays the same across upgrades.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "hello", worker = .hello) ],
  sockets = [ (name = "http", address = "127.0.0.1:8080", http = (), service = "hello") ],
);

const hello :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-17",
);
