//! The commands the page invokes, one file per area. Each is a few lines over core.

pub mod catalog;
pub mod compare;
pub mod export;
pub mod history;
pub mod modules;
pub mod run;
pub mod runs;
