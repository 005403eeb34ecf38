//! The HTTP parts of a manifest: what a test of the `gateway` or `servers` suite requests,
//! and (servers suites) the server commands that answer it, one per runtime.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// What an HTTP test sends, and the servers that answer it (servers suites).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HttpTest {
    /// Request target, path and query (`/compute?n=1000`).
    pub path: String,
    /// `GET`, or `POST` when the test has a body.
    pub method: String,
    /// Request body.
    pub body: Vec<u8>,
    /// Connections for the servers suite's load (else the run's concurrency levels).
    pub connections: Option<u32>,
    /// Seconds of load per level, overriding the run's setting.
    pub duration_secs: Option<f64>,
    /// Servers suite: how each runtime serves this test.
    pub servers: Vec<ServerDef>,
}

/// One way to serve a servers-suite test: a command run by one runtime.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServerDef {
    /// The runtime id this server stands for in the results (`node`, `native`, ...).
    pub runtime: String,
    /// argv with placeholders `{runtime}`, `{suite}`, `{port}`, `{cache}`.
    pub command: Vec<String>,
    /// Environment added to the server's (placeholders expanded).
    pub env: Vec<(String, String)>,
    /// Path polled with GET until it answers 200.
    pub ready: String,
    /// A fixed port, for servers that cannot take one; otherwise a free one is picked.
    #[serde(default)]
    pub port: Option<u16>,
    /// argv run once in the suite folder before the first start (placeholders expanded).
    pub build: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    runtime: Spanned<String>,
    command: Spanned<Vec<String>>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    ready: Option<String>,
    build: Option<Vec<String>>,
    port: Option<Spanned<u16>>,
}

/// The HTTP fields of a raw `[[test]]`.
pub(super) struct RawHttp<'a> {
    pub path: Option<&'a Spanned<String>>,
    pub body: Option<&'a String>,
    pub connections: Option<&'a Spanned<u32>>,
    pub duration_secs: Option<&'a Spanned<f64>>,
    pub servers: &'a [RawServer],
}

/// Checks and converts a test's HTTP fields; `servers` says whether the suite is a
/// servers suite (which needs `[[test.server]]` entries) or a gateway.
pub(super) fn http_test(
    raw: RawHttp,
    test: &str,
    test_at: usize,
    servers: bool,
    err: &dyn Fn(usize, String) -> super::SuiteError,
) -> Result<HttpTest, super::SuiteError> {
    let path = match raw.path {
        Some(p) if p.get_ref().starts_with('/') && !p.get_ref().contains(char::is_whitespace) => {
            p.get_ref().clone()
        }
        Some(p) => {
            return Err(err(
                p.span().start,
                format!(
                    "path '{}' must start with '/' and have no spaces",
                    p.get_ref()
                ),
            ));
        }
        None => {
            return Err(err(
                test_at,
                format!("test '{test}' has no 'path' (what it requests, e.g. \"/hello\")"),
            ));
        }
    };
    if let Some(c) = raw.connections
        && *c.get_ref() == 0
    {
        return Err(err(c.span().start, "connections must be at least 1".into()));
    }
    if let Some(d) = raw.duration_secs
        && !(d.get_ref().is_finite() && *d.get_ref() > 0.0 && *d.get_ref() <= 3600.0)
    {
        return Err(err(
            d.span().start,
            "duration_secs must be over 0 and at most 3600".into(),
        ));
    }
    let mut defs: Vec<ServerDef> = Vec::new();
    for s in raw.servers {
        let runtime = s.runtime.get_ref().trim().to_string();
        if defs.iter().any(|d| d.runtime == runtime) {
            return Err(err(
                s.runtime.span().start,
                format!("test '{test}' has two servers for runtime '{runtime}'"),
            ));
        }
        if s.command.get_ref().is_empty() {
            return Err(err(s.command.span().start, "command is empty".into()));
        }
        let ready = s.ready.clone().unwrap_or_else(|| "/".into());
        if !ready.starts_with('/') {
            return Err(err(
                s.runtime.span().start,
                format!("ready '{ready}' must be a path starting with '/'"),
            ));
        }
        if let Some(p) = &s.port
            && *p.get_ref() < 1024
        {
            return Err(err(
                p.span().start,
                format!("port {} is privileged; use 1024 or above", p.get_ref()),
            ));
        }
        defs.push(ServerDef {
            runtime,
            command: s.command.get_ref().clone(),
            env: s.env.clone().into_iter().collect(),
            ready,
            port: s.port.as_ref().map(|p| *p.get_ref()),
            build: s.build.clone().filter(|b| !b.is_empty()),
        });
    }
    if servers && defs.is_empty() {
        return Err(err(
            test_at,
            format!("test '{test}' has no [[test.server]] entries (a command per runtime)"),
        ));
    }
    if !servers && !defs.is_empty() {
        return Err(err(
            test_at,
            "[[test.server]] applies only to a servers suite (kind = \"servers\")".into(),
        ));
    }
    let body = raw.body.map(|b| b.as_bytes().to_vec()).unwrap_or_default();
    Ok(HttpTest {
        path,
        method: if body.is_empty() { "GET" } else { "POST" }.into(),
        body,
        connections: raw.connections.map(|c| *c.get_ref()),
        duration_secs: raw.duration_secs.map(|d| *d.get_ref()),
        servers: defs,
    })
}

#[cfg(test)]
mod tests {
    use crate::suite::{Suite, SuiteKind};
    use std::path::Path;

    fn parse(text: &str) -> Result<Suite, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/g.c"), "int main(){return 0;}").unwrap();
        Suite::parse(&dir.path().join("suite.toml"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn gateway_and_servers_tests_parse() {
        let s = parse(
            "[suite]\nname = \"g\"\nkind = \"gateway\"\n[[test]]\nname = \"proxy\"\nsource = \"src/g.c\"\nwasm = \"wasm/g.wasm\"\npath = \"/proxy\"\nbody = \"abc\"\n",
        )
        .unwrap();
        assert_eq!(s.kind, SuiteKind::Gateway);
        let h = s.tests[0].http.as_ref().unwrap();
        assert_eq!((h.path.as_str(), h.method.as_str()), ("/proxy", "POST"));
        assert_eq!(h.body, b"abc");
        assert!(s.tests[0].wasm.ends_with(Path::new("wasm/g.wasm")));

        let s = parse(
            "[suite]\nname = \"s\"\nkind = \"servers\"\n[[test]]\nname = \"hello\"\npath = \"/\"\nconnections = 20\n[[test.server]]\nruntime = \"node\"\ncommand = [\"{runtime}\", \"x.js\"]\nenv = { PORT = \"{port}\" }\n[[test.server]]\nruntime = \"native\"\ncommand = [\"./srv\"]\nready = \"/health\"\nport = 18080\n",
        )
        .unwrap();
        let h = s.tests[0].http.as_ref().unwrap();
        assert_eq!(h.connections, Some(20));
        assert_eq!(h.method, "GET");
        assert_eq!(h.servers.len(), 2);
        assert_eq!(h.servers[0].env, vec![("PORT".into(), "{port}".into())]);
        assert_eq!(h.servers[0].ready, "/");
        assert_eq!(
            (h.servers[1].ready.as_str(), h.servers[1].port),
            ("/health", Some(18080))
        );
        // What a servers test measures is its command lines.
        assert_eq!(s.source_hash(&s.tests[0]).unwrap().len(), 64);
    }

    #[test]
    fn bad_http_manifests_name_the_line_and_the_problem() {
        let gw = "[suite]\nname = \"g\"\nkind = \"gateway\"\n[[test]]\nname = \"a\"\nsource = \"src/g.c\"\n";
        let srv =
            "[suite]\nname = \"s\"\nkind = \"servers\"\n[[test]]\nname = \"a\"\npath = \"/\"\n";
        for (text, line, words) in [
            (gw.to_string(), 5, "test 'a' has no 'path'"),
            (format!("{gw}path = \"hello\"\n"), 7, "must start with '/'"),
            (format!("{gw}path = \"/\"\nconnections = 0\n"), 8, "connections must be at least 1"),
            (
                format!("{gw}path = \"/\"\n[[test.server]]\nruntime = \"node\"\ncommand = [\"n\"]\n"),
                5,
                "applies only to a servers suite",
            ),
            (srv.to_string(), 5, "has no [[test.server]] entries"),
            (
                format!("{srv}[[test.server]]\nruntime = \"node\"\ncommand = []\n"),
                9,
                "command is empty",
            ),
            (
                format!("{srv}[[test.server]]\nruntime = \"node\"\ncommand = [\"a\"]\n[[test.server]]\nruntime = \"node\"\ncommand = [\"b\"]\n"),
                11,
                "two servers for runtime 'node'",
            ),
            (
                format!("{srv}[[test.server]]\nruntime = \"node\"\ncommand = [\"a\"]\nport = 80\n"),
                10,
                "port 80 is privileged",
            ),
            (
                format!("{srv}[[test.server]]\nruntime = \"node\"\ncommand = [\"a\"]\nbogus = 1\n"),
                10,
                "bogus",
            ),
            (
                "[suite]\nname = \"c\"\n[[test]]\nname = \"a\"\nsource = \"src/g.c\"\npath = \"/x\"\n".into(),
                6,
                "'path' applies only to HTTP suites",
            ),
        ] {
            let e = parse(&text).unwrap_err();
            assert!(e.contains(&format!("suite.toml:{line}: ")), "{e}\n{text}");
            assert!(e.contains(words), "{e}\n{text}");
        }
    }
}
