//! `frontier merge`: the `--out` files of `simulate --shard K/N` runs joined into the
//! lines of the unsharded run (frontier_study::results::Merge).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use frontier_study::results::Merge;

#[derive(Args)]
pub struct MergeArgs {
    /// Shard files written by `frontier simulate … --shard K/N --out FILE`, in any order.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged lines to this file (default: standard output); never one of the
    /// shard files, and a file already there only with --force.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub force: crate::output::ForceArg,
}

/// `frontier merge`: the games of shard files in the order of the unsharded run. Every
/// game of the run must be there exactly once, and every line must belong to the same run.
pub fn merge(args: MergeArgs) -> Result<(), String> {
    if let Some(out) = &args.out {
        for file in &args.files {
            crate::output::refuse_input(out, file, "--out")?;
        }
        crate::output::check_output(out, args.force.existing(), "--out")?;
    }
    let mut merge = Merge::default();
    for file in &args.files {
        let text = crate::source::read_regular(file)?;
        merge.add(&file.display().to_string(), &text)?;
    }
    let out = merge.finish()?;
    match &args.out {
        Some(path) => crate::output::write_atomically(path, out.as_bytes()),
        None => std::io::stdout()
            .write_all(out.as_bytes())
            .map_err(|e| format!("cannot write the merged games: {e}")),
    }
}
