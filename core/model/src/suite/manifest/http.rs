//! HTTP tests: what a test of a `gateway` or `servers` suite requests, the gateway's guest,
//! and (servers suites) the server commands that answer it, one per runtime.

use super::{Manifest, RawSuite, RawTest};
use crate::suite::{GatewayTest, HttpTest, ServerDef, SuiteError, TestKind};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A `[[test.server]]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    runtime: Spanned<String>,
    command: Option<Spanned<Vec<String>>>,
    component: Option<Spanned<String>>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    ready: Option<String>,
    build: Option<Vec<String>>,
    port: Option<Spanned<u16>>,
}

/// The fields of the request, in both HTTP kinds.
const REQUEST: [&str; 5] = ["path", "body", "connections", "rates", "duration_secs"];

/// A gateway test: the request and the guest that answers it.
pub(super) fn gateway_test(
    m: &Manifest,
    suite: &RawSuite,
    t: &RawTest,
    name: &str,
) -> Result<TestKind, SuiteError> {
    let guest = [
        "source",
        "wasm",
        "native",
        "wasm_cflags",
        "native_cflags",
        "component",
    ];
    m.only(t, &[&REQUEST[..], &guest[..]].concat(), |field| match field {
        "[[test.server]]" => {
            "[[test.server]] applies only to a servers suite (kind = \"servers\")".into()
        }
        _ => format!(
            "{field} does not apply to a gateway test: its guest answers requests, it is not checked"
        ),
    })?;
    let mut request = request(m, t, name)?;
    request.component = t
        .component
        .as_ref()
        .map(|c| m.existing("component", c, "component"))
        .transpose()?;
    let guest = super::command::guest(m, suite, t, name)?;
    Ok(TestKind::Gateway(GatewayTest { request, guest }))
}

/// A servers test: the request and a server per runtime; nothing is built from files.
pub(super) fn servers_test(m: &Manifest, t: &RawTest, name: &str) -> Result<TestKind, SuiteError> {
    m.only(t, &[&REQUEST[..], &["server"][..]].concat(), |field| {
        format!("{field} does not apply to a servers test: its servers' commands are what runs")
    })?;
    let mut request = request(m, t, name)?;
    request.servers = servers(m, t, name)?;
    Ok(TestKind::Servers(request))
}

/// What the test requests.
fn request(m: &Manifest, t: &RawTest, name: &str) -> Result<HttpTest, SuiteError> {
    let path = match &t.path {
        Some(p) if p.get_ref().starts_with('/') && !p.get_ref().contains(char::is_whitespace) => {
            p.get_ref().clone()
        }
        Some(p) => {
            return Err(m.err(
                p.span().start,
                format!(
                    "path '{}' must start with '/' and have no spaces",
                    p.get_ref()
                ),
            ));
        }
        None => {
            return Err(m.err(
                t.name.span().start,
                format!("test '{name}' has no 'path' (what it requests, e.g. \"/hello\")"),
            ));
        }
    };
    let connections = t
        .connections
        .as_ref()
        .map(|c| c.get_ref().to_vec())
        .unwrap_or_default();
    if let Some(c) = &t.connections
        && (connections.is_empty() || connections.contains(&0))
    {
        return Err(m.err(
            c.span().start,
            "connections must be at least 1 (a number or a non-empty list)".into(),
        ));
    }
    let rates = match &t.rates {
        Some(r)
            if !r.get_ref().is_empty()
                && r.get_ref().iter().all(|&n| n >= 1 && n <= u32::MAX.into()) =>
        {
            r.get_ref().iter().map(|&n| n as u32).collect()
        }
        Some(r) => {
            return Err(m.err(
                r.span().start,
                "rates must be a non-empty list of whole requests per second, each at least 1"
                    .into(),
            ));
        }
        None => Vec::new(),
    };
    if let Some(d) = &t.duration_secs
        && !(d.get_ref().is_finite() && *d.get_ref() > 0.0 && *d.get_ref() <= 3600.0)
    {
        return Err(m.err(
            d.span().start,
            "duration_secs must be over 0 and at most 3600".into(),
        ));
    }
    let body = t
        .body
        .as_ref()
        .map(|b| b.get_ref().as_bytes().to_vec())
        .unwrap_or_default();
    Ok(HttpTest {
        path,
        method: if body.is_empty() { "GET" } else { "POST" }.into(),
        body,
        connections,
        rates,
        duration_secs: t.duration_secs.as_ref().map(|d| *d.get_ref()),
        servers: Vec::new(),
        component: None,
    })
}

/// The runtimes a server's `component` (a `wasi:http` component, not a program) applies
/// to: embedded `wasmtime-http` and the wasmtime CLI's `serve` (the runtime registry's
/// `serves_components` answers from this list).
pub const COMPONENT_RUNTIMES: [&str; 2] = ["wasmtime-http", "wasmtime-serve"];

/// A servers test's `[[test.server]]` entries: at least one, one per runtime.
fn servers(m: &Manifest, t: &RawTest, name: &str) -> Result<Vec<ServerDef>, SuiteError> {
    let mut defs: Vec<ServerDef> = Vec::new();
    for s in &t.server {
        let runtime = s.runtime.get_ref().trim().to_string();
        if defs.iter().any(|d| d.runtime == runtime) {
            return Err(m.err(
                s.runtime.span().start,
                format!("test '{name}' has two servers for runtime '{runtime}'"),
            ));
        }
        let command = match (&s.command, &s.component) {
            (Some(c), None) if c.get_ref().is_empty() => {
                return Err(m.err(c.span().start, "command is empty".into()));
            }
            (Some(c), None) => c.get_ref().clone(),
            (None, Some(c)) if !COMPONENT_RUNTIMES.contains(&runtime.as_str()) => {
                return Err(m.err(
                    c.span().start,
                    format!(
                        "'component' applies to runtimes that serve wasi:http components ({}), not '{runtime}'",
                        COMPONENT_RUNTIMES.join(", ")
                    ),
                ));
            }
            (None, Some(_)) => Vec::new(),
            _ => {
                return Err(m.err(
                    s.runtime.span().start,
                    format!(
                        "server '{runtime}' needs either 'command' (a server program) or 'component' (a wasi:http component), not both or neither"
                    ),
                ));
            }
        };
        let ready = s.ready.clone().unwrap_or_else(|| "/".into());
        if !ready.starts_with('/') {
            return Err(m.err(
                s.runtime.span().start,
                format!("ready '{ready}' must be a path starting with '/'"),
            ));
        }
        if let Some(p) = &s.port
            && *p.get_ref() < 1024
        {
            return Err(m.err(
                p.span().start,
                format!("port {} is privileged; use 1024 or above", p.get_ref()),
            ));
        }
        defs.push(ServerDef {
            runtime,
            command,
            component: s.component.as_ref().map(|c| c.get_ref().clone()),
            env: s.env.clone().into_iter().collect(),
            ready,
            port: s.port.as_ref().map(|p| *p.get_ref()),
            build: s.build.clone().filter(|b| !b.is_empty()),
        });
    }
    if defs.is_empty() {
        return Err(m.err(
            t.name.span().start,
            format!("test '{name}' has no [[test.server]] entries (a command per runtime)"),
        ));
    }
    Ok(defs)
}

#[cfg(test)]
mod tests {
    use crate::suite::{Suite, SuiteKind, TestKind};
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
        let TestKind::Gateway(g) = &s.tests[0].kind else {
            panic!("{:?}", s.tests[0].kind)
        };
        let h = &g.request;
        assert_eq!((h.path.as_str(), h.method.as_str()), ("/proxy", "POST"));
        assert_eq!(h.body, b"abc");
        assert!(g.guest.wasm.ends_with(Path::new("wasm/g.wasm")));
        assert_eq!(s.tests[0].http(), Some(h));

        let s = parse(
            "[suite]\nname = \"s\"\nkind = \"servers\"\n[[test]]\nname = \"hello\"\npath = \"/\"\nconnections = 20\n[[test.server]]\nruntime = \"node\"\ncommand = [\"{runtime}\", \"x.js\"]\nenv = { PORT = \"{port}\" }\n[[test.server]]\nruntime = \"native\"\ncommand = [\"./srv\"]\nready = \"/health\"\nport = 18080\n",
        )
        .unwrap();
        let h = s.tests[0].http().unwrap();
        assert_eq!(s.tests[0].wasm(), None);
        assert_eq!(h.connections, vec![20]);
        let many = parse(
            "[suite]\nname = \"s\"\nkind = \"servers\"\n[[test]]\nname = \"hello\"\npath = \"/\"\nconnections = [50, 400]\nrates = [5000, 1000]\n[[test.server]]\nruntime = \"node\"\ncommand = [\"{runtime}\", \"x.js\"]\n",
        )
        .unwrap();
        assert_eq!(many.tests[0].http().unwrap().connections, vec![50, 400]);
        // A test's own rates, loaded ascending unless the run sets its own.
        let own = &many.tests[0].http().unwrap().rates;
        assert_eq!(own, &vec![5000, 1000]);
        let mut settings = crate::store::HttpSettings::default();
        assert_eq!(settings.rates_for(own), vec![1000, 5000]);
        settings.rates = vec![200];
        assert_eq!(settings.rates_for(own), vec![200]);
        // Saved runs from before lists hold one number or null.
        for (saved, want) in [
            ("50", vec![50]),
            ("null", vec![]),
            ("[50,400]", vec![50, 400]),
        ] {
            let json = format!(
                r#"{{"path":"/","method":"GET","body":[],"connections":{saved},"duration_secs":null,"servers":[]}}"#
            );
            let h: crate::suite::HttpTest = serde_json::from_str(&json).unwrap();
            assert_eq!(h.connections, want, "{saved}");
        }
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

    /// A gateway test's hash follows its wasi:http component too: the variants that serve
    /// it measure it.
    #[test]
    fn a_gateway_hash_covers_the_component() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::create_dir_all(dir.path().join("wasm")).unwrap();
        std::fs::write(dir.path().join("src/g.c"), "int main(){return 0;}").unwrap();
        let text = "[suite]\nname = \"g\"\nkind = \"gateway\"\n[[test]]\nname = \"a\"\nsource = \"src/g.c\"\npath = \"/\"\ncomponent = \"wasm/c.wasm\"\n";
        let hash = |component: &[u8]| {
            std::fs::write(dir.path().join("wasm/c.wasm"), component).unwrap();
            let s = Suite::parse(&dir.path().join("suite.toml"), text).unwrap();
            s.source_hash(&s.tests[0]).unwrap()
        };
        let (one, same, other) = (hash(b"one"), hash(b"one"), hash(b"two"));
        assert_eq!(one, same);
        assert_ne!(one, other, "a rebuilt component is a changed test");
        let without = Suite::parse(
            &dir.path().join("suite.toml"),
            &text.replace("component = \"wasm/c.wasm\"\n", ""),
        )
        .unwrap();
        assert_ne!(without.source_hash(&without.tests[0]).unwrap(), one);
        // What build.sh locks is the C guest alone, with or without a component.
        let with = Suite::parse(&dir.path().join("suite.toml"), text).unwrap();
        assert_eq!(
            with.build_hash(&with.tests[0]).unwrap(),
            without.build_hash(&without.tests[0]).unwrap()
        );
        assert_eq!(
            without.build_hash(&without.tests[0]).unwrap(),
            without.source_hash(&without.tests[0]).unwrap()
        );
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
            (format!("{gw}path = \"/\"\nconnections = []\n"), 8, "connections must be at least 1"),
            (format!("{gw}path = \"/\"\nconnections = [50, 0]\n"), 8, "connections must be at least 1"),
            (format!("{gw}path = \"/\"\nrates = [1000, 0]\n"), 8, "rates must be a non-empty list"),
            (format!("{gw}path = \"/\"\nrates = [-5]\n"), 8, "rates must be a non-empty list"),
            (format!("{gw}path = \"/\"\nrates = []\n"), 8, "rates must be a non-empty list"),
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
