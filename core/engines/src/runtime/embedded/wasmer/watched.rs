//! A wasmer compiler watched: every call passed through to the one it wraps, so the code is
//! the same byte for byte, but asking for wasmer's own perf map (its engine writes
//! `/tmp/perf-PID.map` for any compiler that asks, and Singlepass's config cannot), and
//! keeping each function's machine code with its address map, which wasmer's API does not
//! give (the hot-code view and the checks a profile counts). Only a profiled worker and
//! the code view build it.

use crate::profile::code::CompiledFunction;
use enumset::EnumSet;
use std::sync::{Arc, Mutex};
use wasmer_compiler::types::function::Compilation;
use wasmer_compiler::types::module::CompileModuleInfo;
use wasmer_compiler::{
    Compiler, CompilerConfig, Debugger, FunctionBodyData, ModuleMiddleware,
    ModuleTranslationState,
};
use wasmer_types::entity::PrimaryMap;
use wasmer_types::error::CompileError;
use wasmer_types::target::{CpuFeature, Target, UserCompilerOptimizations};
use wasmer_types::{CompilationProgressCallback, Features, LocalFunctionIndex};

/// Each function's code as compiled, filled by a watched compiler that keeps code.
pub type Kept = Arc<Mutex<Vec<CompiledFunction>>>;

/// A compiler config that builds `inner`'s compiler, watched: asking for the perf map, and
/// keeping the code in `keep` when given.
pub struct Watched<C> {
    /// The compiler's own config.
    pub inner: C,
    /// Asks for the perf map (a profiled worker).
    pub perf_map: bool,
    /// Where to keep each function's code, with the engine's words for it.
    pub keep: Option<(Kept, String)>,
}

impl<C: CompilerConfig + 'static> CompilerConfig for Watched<C> {
    fn enable_pic(&mut self) {
        self.inner.enable_pic();
    }

    fn enable_verifier(&mut self) {
        self.inner.enable_verifier();
    }

    fn enable_perfmap(&mut self) {
        self.inner.enable_perfmap();
    }

    fn enable_debugger(&mut self, debugger: Debugger) {
        self.inner.enable_debugger(debugger);
    }

    fn enable_non_volatile_memops(&mut self) {
        self.inner.enable_non_volatile_memops();
    }

    fn enable_experimental_unaligned_memory_accesses(&mut self) {
        self.inner.enable_experimental_unaligned_memory_accesses();
    }

    fn enable_readonly_funcref_table(&mut self) {
        self.inner.enable_readonly_funcref_table();
    }

    fn experimental_artifact(&mut self, enable: bool) {
        self.inner.experimental_artifact(enable);
    }

    fn canonicalize_nans(&mut self, enable: bool) {
        self.inner.canonicalize_nans(enable);
    }

    fn compiler(self: Box<Self>) -> Box<dyn Compiler> {
        let Watched {
            inner,
            perf_map,
            keep,
        } = *self;
        Box::new(Mapped {
            inner: Box::new(inner).compiler(),
            perf_map,
            keep,
        })
    }

    fn default_features_for_target(&self, target: &Target) -> Features {
        self.inner.default_features_for_target(target)
    }

    fn supported_features_for_target(&self, target: &Target) -> Features {
        self.inner.supported_features_for_target(target)
    }

    fn push_middleware(&mut self, middleware: Arc<dyn ModuleMiddleware>) {
        self.inner.push_middleware(middleware);
    }
}

/// The wrapped compiler: everything is the inner one's but the answer to the perf map and
/// the code it keeps.
struct Mapped {
    inner: Box<dyn Compiler>,
    perf_map: bool,
    keep: Option<(Kept, String)>,
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Watched").field(&self.inner).finish()
    }
}

impl Compiler for Mapped {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn deterministic_id(&self) -> String {
        self.inner.deterministic_id()
    }

    fn artifact_format(&self) -> String {
        self.inner.artifact_format()
    }

    fn with_opts(&mut self, opts: &UserCompilerOptimizations) -> Result<(), CompileError> {
        self.inner.with_opts(opts)
    }

    fn validate_module(&self, features: &Features, data: &[u8]) -> Result<(), CompileError> {
        self.inner.validate_module(features, data)
    }

    fn compile_module(
        &self,
        target: &Target,
        module: &CompileModuleInfo,
        compile_info_blob: &[u8],
        module_translation: &ModuleTranslationState,
        function_body_inputs: PrimaryMap<LocalFunctionIndex, FunctionBodyData<'_>>,
        progress_callback: Option<&CompilationProgressCallback>,
    ) -> Result<Compilation, CompileError> {
        let compiled = self.inner.compile_module(
            target,
            module,
            compile_info_blob,
            module_translation,
            function_body_inputs,
            progress_callback,
        )?;
        if let (Some((kept, engine)), Compilation::Rkyv { compilation, .. }) =
            (&self.keep, &compiled)
        {
            let info = &module.module;
            let code = compilation.functions.iter().map(|(local, f)| {
                let index = info.func_index(local).as_u32();
                CompiledFunction {
                    index,
                    name: info
                        .function_names
                        .get(&info.func_index(local))
                        .cloned()
                        .unwrap_or_else(|| format!("function[{index}]")),
                    engine: engine.clone(),
                    version: env!("WASMETER_WASMER_VERSION").to_string(),
                    arch: std::env::consts::ARCH,
                    code: f.body.body.clone(),
                    address_map: address_map(&f.frame_info.address_map.instructions),
                }
            });
            kept.lock().unwrap_or_else(|e| e.into_inner()).extend(code);
        }
        Ok(compiled)
    }

    fn get_middlewares(&self) -> &[Arc<dyn ModuleMiddleware>] {
        self.inner.get_middlewares()
    }

    fn enable_readonly_funcref_table(&self) -> bool {
        self.inner.enable_readonly_funcref_table()
    }

    fn get_cpu_features_used(&self, cpu_features: &EnumSet<CpuFeature>) -> EnumSet<CpuFeature> {
        self.inner.get_cpu_features_used(cpu_features)
    }

    fn get_perfmap_enabled(&self) -> bool {
        self.perf_map
    }

    fn get_debugger(&self) -> Option<Debugger> {
        self.inner.get_debugger()
    }
}

/// wasmer's map of code ranges to wasm offsets as the checks read one: (offset where an
/// instruction's code starts, its byte offset in the module), and `None` where code of no
/// instruction follows.
fn address_map(
    instructions: &[wasmer_compiler::types::address_map::InstructionAddressMap],
) -> Vec<(u32, Option<u32>)> {
    let mut sorted: Vec<_> = instructions.iter().collect();
    sorted.sort_by_key(|i| i.code_offset);
    let mut out: Vec<(u32, Option<u32>)> = Vec::with_capacity(sorted.len() * 2);
    for (k, i) in sorted.iter().enumerate() {
        let wasm = (!i.srcloc.is_default()).then(|| i.srcloc.bits());
        out.push((i.code_offset as u32, wasm));
        let end = i.code_offset + i.code_len;
        if sorted.get(k + 1).is_none_or(|next| next.code_offset > end) {
            out.push((end as u32, None));
        }
    }
    out
}
