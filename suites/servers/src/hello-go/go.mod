module wasmeter.local/servers/hello-go

go 1.22
