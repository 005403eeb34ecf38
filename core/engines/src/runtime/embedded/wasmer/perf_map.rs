//! Singlepass with wasmer's own perf map. wasmer's engine writes `/tmp/perf-PID.map` for any
//! compiler that says it wants one, but only Cranelift's config can say so; this compiler is
//! Singlepass itself, every call passed through, saying yes. The code it compiles is the
//! same byte for byte: only a profiled worker builds it.

use enumset::EnumSet;
use std::sync::Arc;
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

/// A compiler config that builds `inner`'s compiler, wrapped to ask for the perf map.
pub struct PerfMapped<C>(pub C);

impl<C: CompilerConfig + 'static> CompilerConfig for PerfMapped<C> {
    fn enable_pic(&mut self) {
        self.0.enable_pic();
    }

    fn enable_verifier(&mut self) {
        self.0.enable_verifier();
    }

    fn enable_perfmap(&mut self) {
        self.0.enable_perfmap();
    }

    fn enable_debugger(&mut self, debugger: Debugger) {
        self.0.enable_debugger(debugger);
    }

    fn enable_non_volatile_memops(&mut self) {
        self.0.enable_non_volatile_memops();
    }

    fn enable_experimental_unaligned_memory_accesses(&mut self) {
        self.0.enable_experimental_unaligned_memory_accesses();
    }

    fn enable_readonly_funcref_table(&mut self) {
        self.0.enable_readonly_funcref_table();
    }

    fn experimental_artifact(&mut self, enable: bool) {
        self.0.experimental_artifact(enable);
    }

    fn canonicalize_nans(&mut self, enable: bool) {
        self.0.canonicalize_nans(enable);
    }

    fn compiler(self: Box<Self>) -> Box<dyn Compiler> {
        Box::new(Mapped(Box::new(self.0).compiler()))
    }

    fn default_features_for_target(&self, target: &Target) -> Features {
        self.0.default_features_for_target(target)
    }

    fn supported_features_for_target(&self, target: &Target) -> Features {
        self.0.supported_features_for_target(target)
    }

    fn push_middleware(&mut self, middleware: Arc<dyn ModuleMiddleware>) {
        self.0.push_middleware(middleware);
    }
}

/// The wrapped compiler: everything is the inner one's but the answer to the perf map.
#[derive(Debug)]
struct Mapped(Box<dyn Compiler>);

impl Compiler for Mapped {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn deterministic_id(&self) -> String {
        self.0.deterministic_id()
    }

    fn artifact_format(&self) -> String {
        self.0.artifact_format()
    }

    fn with_opts(&mut self, opts: &UserCompilerOptimizations) -> Result<(), CompileError> {
        self.0.with_opts(opts)
    }

    fn validate_module(&self, features: &Features, data: &[u8]) -> Result<(), CompileError> {
        self.0.validate_module(features, data)
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
        self.0.compile_module(
            target,
            module,
            compile_info_blob,
            module_translation,
            function_body_inputs,
            progress_callback,
        )
    }

    fn get_middlewares(&self) -> &[Arc<dyn ModuleMiddleware>] {
        self.0.get_middlewares()
    }

    fn enable_readonly_funcref_table(&self) -> bool {
        self.0.enable_readonly_funcref_table()
    }

    fn get_cpu_features_used(&self, cpu_features: &EnumSet<CpuFeature>) -> EnumSet<CpuFeature> {
        self.0.get_cpu_features_used(cpu_features)
    }

    fn get_perfmap_enabled(&self) -> bool {
        true
    }

    fn get_debugger(&self) -> Option<Debugger> {
        self.0.get_debugger()
    }
}
