//! The worker's spec for one cell, per kind of test: a command (its program, the native
//! build when needed, its answer and check), a life cycle, an HTTP gateway or servers.

use super::{Arm, CellCtx, make_scratch};
use crate::http_suites::driver::HttpJob;
use crate::runner::worker::{CellSpec, CellWork, CheckJob, CommandJob, LifecycleJob, Partners};
use crate::runner::{NO_LIBRARY, NO_NATIVE, cross_check};
use crate::runtime::{
    Failure, Job, NATIVE_DLOPEN, NativeCompiler, NativeForm, RuntimeKind, WorkerCommand,
};
use crate::suite::{Build, CommandTest, HttpKind, TestKind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

impl CellCtx<'_> {
    /// The worker's spec: every arm that could be prepared (one that could not has its
    /// failure set), the others as the first's partners; `None` when none could.
    pub(super) fn spec(
        &mut self,
        compiler: Result<&NativeCompiler, &String>,
        worker: &WorkerCommand,
    ) -> Option<CellSpec> {
        let mut specs = Vec::new();
        for k in 0..self.arms.len() {
            match self.prepare(&self.arms[k], compiler, worker) {
                Ok(spec) => {
                    self.live.push(k);
                    specs.push(spec);
                }
                Err(f) => self.arms[k].failure = Some(f),
            }
        }
        let mut specs = specs.into_iter();
        let mut spec = specs.next()?;
        let others: Vec<CellSpec> = specs.collect();
        spec.partners = (!others.is_empty()).then(|| Partners {
            arms: others,
            seed: self.plan.settings.seed
                ^ u64::from(self.invocation).rotate_left(32)
                ^ self.arms[0].index as u64,
        });
        Some(spec)
    }

    /// Everything the worker needs for one arm; failures here are the cell's, not the run's.
    fn prepare(
        &self,
        a: &Arm<'_>,
        compiler: Result<&NativeCompiler, &String>,
        worker: &WorkerCommand,
    ) -> Result<CellSpec, Failure> {
        if let Some(why) = &a.runtime.unavailable {
            return Err(Failure::Unavailable(why.clone()));
        }
        // Unique in the process too: two runs in one process (a library user, parallel
        // tests) must not share, and so delete, each other's scratch.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let scratch = std::env::temp_dir().join(format!(
            "wasmeter-scratch-{}-{}-{}",
            std::process::id(),
            a.index,
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match &a.test.kind {
            // A command makes its scratch directory once nothing else can fail.
            TestKind::Command(cmd) => self.command_spec(a, cmd, compiler, scratch),
            TestKind::Lifecycle(module) => {
                make_scratch(&scratch)?;
                Ok(self.lifecycle_spec(a, module, scratch, worker))
            }
            TestKind::Gateway(g) => {
                let guest = match a.runtime.id.as_str() {
                    crate::runtime::container::PER_REQUEST => {
                        Some(self.native_program(a, &g.guest, compiler, NativeForm::Program)?)
                    }
                    _ => None,
                };
                make_scratch(&scratch)?;
                let http = (HttpKind::Gateway, &g.request);
                Ok(self.http_spec(a, http, guest, scratch, worker))
            }
            TestKind::Servers(http) => {
                make_scratch(&scratch)?;
                Ok(self.http_spec(a, (HttpKind::Servers, http), None, scratch, worker))
            }
        }
    }

    /// A command cell: its program on this runtime (the native build made when needed),
    /// the answer it must give and its check step.
    fn command_spec(
        &self,
        a: &Arm<'_>,
        cmd: &CommandTest,
        compiler: Result<&NativeCompiler, &String>,
        scratch: PathBuf,
    ) -> Result<CellSpec, Failure> {
        let size = self.plan.settings.size;
        let on_native = a.runtime.kind == RuntimeKind::Native;
        let guest = &cmd.guest;
        let read = |path: &Path| {
            std::fs::read_to_string(path)
                .map_err(|_| Failure::MissingFile(path.display().to_string()))
        };
        // A prebuilt test (from a suite's build script) has no answer file or size
        // argument unless it is sized: its check step, if any, checks it. A module as
        // given has its own arguments, environment and stdin, and an answer only when the
        // user gave one. A build the script could not make fails its cells with its reason.
        let none = crate::suite::ModuleRun::default();
        if let Build::Prebuilt {
            wasm_error,
            native_error,
            ..
        } = &guest.build
            && let Some(e) = if on_native { native_error } else { wasm_error }
        {
            return Err(Failure::Other(format!("not built: {e}")));
        }
        let (expected, args, run) = match &guest.build {
            Build::Prebuilt { sized: false, .. } => (None, Vec::new(), &none),
            Build::Module(run) => (
                run.expect.as_deref().map(read).transpose()?,
                run.args.clone(),
                run,
            ),
            Build::Source(_) | Build::Prebuilt { sized: true, .. } => (
                Some(read(&self.plan.suite.expected_path(a.test, size))?),
                vec![size.as_str().to_string()],
                &none,
            ),
        };
        let in_worker = a.runtime.id == NATIVE_DLOPEN;
        let program = match (&guest.build, on_native, in_worker) {
            (_, false, _) => guest.wasm.clone(),
            (Build::Source(_), true, true) => {
                self.native_program(a, guest, compiler, NativeForm::Library)?
            }
            (_, true, true) => return Err(Failure::Unavailable(NO_LIBRARY.into())),
            (_, true, false) => self.native_program(a, guest, compiler, NativeForm::Program)?,
        };
        let check = cmd.check.as_ref().map(|c| CheckJob {
            program: if on_native {
                c.native.clone()
            } else {
                c.wasm.clone()
            },
            expected: c.expected.clone(),
            result: c.result.clone(),
        });
        let untimed = cmd.check.as_ref().is_some_and(|c| c.untimed.is_some());
        make_scratch(&scratch)?;
        // No known answer: the runtimes' answers are compared when the run ends.
        let answer_file = a
            .test
            .cross_checked()
            .then(|| cross_check::answer_file(self.writer.dir(), &a.test.name, &a.runtime.id));
        if let Some(dir) = answer_file.as_ref().and_then(|f| f.parent()) {
            make_scratch(dir)?;
        }
        let instructions_dir = (self.plan.settings.measure == crate::store::Measure::Instructions
            && a.runtime.kind == RuntimeKind::Embedded)
            .then(|| scratch.join("callgrind"));
        Ok(CellSpec {
            runtime: a.runtime.clone(),
            job: Job {
                program,
                name: a.test.name.clone(),
                args,
                env: run.env.clone(),
                scratch,
                memory_limit: self.plan.settings.memory_cap_bytes,
                stdout_limit: 16 << 20,
                stdin: run.stdin.clone(),
                dirs: run.dirs.clone(),
                // A native build has no exports: it runs as a program.
                invoke: run.invoke.clone().filter(|_| !on_native),
            },
            // An untimed test is only checked.
            warmup: if untimed {
                0
            } else {
                self.plan.settings.warmup
            },
            runs: if untimed { 0 } else { self.plan.settings.runs },
            work: CellWork::Command(CommandJob {
                expected,
                check,
                self_timed_iterations: self.plan.suite.self_timed_iterations,
                answer_file,
            }),
            instructions_dir,
            partners: None,
            profile: self
                .plan
                .settings
                .profile
                .map(crate::profile::ProfileSpec::at_hz),
        })
    }

    /// A lifecycle cell: no answer file; the worker generates or reads the module and may
    /// start fresh copies of itself for first-in-process samples.
    fn lifecycle_spec(
        &self,
        a: &Arm<'_>,
        module: &crate::lifecycle::LifecycleModule,
        scratch: PathBuf,
        worker: &WorkerCommand,
    ) -> CellSpec {
        self.host_driven(
            a,
            PathBuf::new(),
            scratch,
            CellWork::Lifecycle(LifecycleJob {
                module: module.clone(),
                fresh: Some(worker.clone()),
                first_only: None,
            }),
        )
    }

    /// A cell the worker drives itself (lifecycle, HTTP): no arguments, no answer file.
    fn host_driven(
        &self,
        a: &Arm<'_>,
        program: PathBuf,
        scratch: PathBuf,
        work: CellWork,
    ) -> CellSpec {
        CellSpec {
            runtime: a.runtime.clone(),
            job: Job {
                program,
                name: a.test.name.clone(),
                args: Vec::new(),
                env: Vec::new(),
                scratch,
                memory_limit: self.plan.settings.memory_cap_bytes,
                stdout_limit: 0,
                stdin: None,
                dirs: Vec::new(),
                invoke: None,
            },
            warmup: self.plan.settings.warmup,
            runs: self.plan.settings.runs,
            work,
            instructions_dir: None,
            partners: None,
            profile: None,
        }
    }

    /// An HTTP cell: the worker starts the server (the gateway is wasmeter itself,
    /// `serve-gateway`) and loads it; no answer file, the driver checks answers.
    fn http_spec(
        &self,
        a: &Arm<'_>,
        (kind, http): (HttpKind, &crate::suite::HttpTest),
        native_guest: Option<PathBuf>,
        scratch: PathBuf,
        worker: &WorkerCommand,
    ) -> CellSpec {
        // The gateway's guest (none for a servers suite): its module, or its native build
        // for the variant that runs it in a container per request.
        let program = native_guest
            .or_else(|| a.test.wasm().map(Path::to_path_buf))
            .unwrap_or_default();
        let job = HttpJob {
            kind,
            test: http.clone(),
            settings: self.plan.settings.http.clone().unwrap_or_default(),
            serve_gateway: WorkerCommand {
                program: worker.program.clone(),
                args: vec![crate::runner::SERVE_GATEWAY.into()],
            },
            suite_dir: self.plan.suite.dir.clone(),
            cache_dir: crate::runtime::cache_root()
                .join("servers")
                .join(&self.plan.suite.name),
        };
        self.host_driven(a, program, scratch, CellWork::Http(Box::new(job)))
    }

    /// The native build of a test's guest (the native baseline's program, native-dlopen's
    /// library, the guest container-per-request runs): built from its source in `form`,
    /// the suite script's prebuilt one, or the one given with a module.
    fn native_program(
        &self,
        a: &Arm<'_>,
        guest: &crate::suite::Guest,
        compiler: Result<&NativeCompiler, &String>,
        form: NativeForm,
    ) -> Result<PathBuf, Failure> {
        match &guest.build {
            Build::Source(src) => compiler
                .map_err(|e| Failure::Unavailable(e.clone()))?
                .build(&self.plan.suite, &a.test.name, src, form),
            Build::Prebuilt {
                native_error: Some(e),
                ..
            } => Err(Failure::Other(format!("not built: {e}"))),
            Build::Prebuilt { native, .. } => Ok(native.clone()),
            Build::Module(run) => run
                .native
                .clone()
                .ok_or_else(|| Failure::Unavailable(NO_NATIVE.into())),
        }
    }
}
