//! Loads a ruleset found by embedded name or path (frontier-sources) with a run's
//! settings, and shows its files (`frontier show`).

use std::path::Path;

use frontier_interpreter::model::Limits;
use frontier_interpreter::{Game, RulesetSource};
pub use frontier_sources::{
    embedded, from_path, plain_io, read_regular, read_text, resolve, RULESETS,
};
use frontier_study::Settings;

/// Loads a ruleset (following `extends:` relative to the file that names it), with this
/// run's settings.
pub fn load_ruleset(spec: &str, settings: &Settings) -> Result<Game, String> {
    load_ruleset_checked(spec, settings)?.map_err(|e| e.to_string())
}

/// Loads a ruleset keeping its diagnostics as data: `Err` when the name or path does not
/// resolve, `Ok(Err)` when the ruleset has problems.
pub fn load_ruleset_checked(
    spec: &str,
    settings: &Settings,
) -> Result<Result<Game, frontier_interpreter::LoadError>, String> {
    Ok(load_source(
        &resolve(spec, None, &settings.limits)?,
        &[],
        settings,
    ))
}

/// Loads a ruleset read from `source` with `params` overridden, following its `extends:`
/// relative to its file, with this run's settings.
pub fn load_source(
    source: &RulesetSource,
    params: &[(String, i64)],
    settings: &Settings,
) -> Result<Game, frontier_interpreter::LoadError> {
    let resolver = frontier_sources::extends_resolver(source, settings.limits);
    settings.load(source, &resolver, params)
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// Print only this file of the ruleset (`ruleset.yaml`, `scripts/scoring.rhai`), as it is;
    /// of an embedded ruleset also `RULES.md` and its traces (`traces/setup.trace`,
    /// `traces/positions/…`).
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
}

/// `frontier show`: a ruleset's files. With several files, each starts with a
/// `==> file <==` line (as `head` writes them); `--file` prints one file alone.
pub fn show(args: ShowArgs, limits: &Limits) -> Result<(), String> {
    let source = resolve(&args.ruleset, None, limits)?;
    let dir = Path::new(&source.file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let short = |f: &str| {
        Path::new(f)
            .strip_prefix(&dir)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| f.to_string())
    };
    let mut files = vec![(short(&source.file), source.text.clone())];
    files.extend(source.scripts.iter().map(|(f, t)| (short(f), t.clone())));
    if let Some(wanted) = &args.file {
        // An embedded ruleset also carries its RULES.md and traces/, shown one at a time.
        let others = frontier_sources::embedded_files(&args.ruleset)
            .iter()
            .map(|(f, t)| (f.to_string(), t.to_string()));
        files.extend(others);
        return match files.iter().find(|(f, _)| f == wanted) {
            Some((_, text)) => {
                print!("{text}");
                Ok(())
            }
            None => {
                let names: Vec<String> = files.iter().map(|(f, _)| f.clone()).collect();
                let hint = frontier_interpreter::hints::did_you_mean(wanted, &names);
                Err(format!(
                    "{} has no file '{wanted}'{hint}: its files are {}",
                    args.ruleset,
                    names.join(", ")
                ))
            }
        };
    }
    let several = files.len() > 1;
    for (i, (file, text)) in files.iter().enumerate() {
        if several {
            println!("{}==> {file} <==", if i > 0 { "\n" } else { "" });
        }
        print!("{text}");
        if !text.ends_with('\n') {
            println!();
        }
    }
    Ok(())
}
