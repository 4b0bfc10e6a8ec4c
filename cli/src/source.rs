//! Finds a ruleset by embedded name or path, and reads its files.

use std::path::{Path, PathBuf};

use frontier_interpreter::model::Limits;
use frontier_interpreter::{Game, RulesetSource};
use frontier_study::Settings;

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

pub struct Embedded {
    pub name: &'static str,
    /// The file's path under rulesets/ (for messages): `go-west/ruleset.yaml`, or
    /// `grand-junction/variants/simplified.yaml` for an embedded variant.
    pub file: &'static str,
    pub ruleset: &'static str,
    pub scripts: &'static [(&'static str, &'static str)],
}

pub fn embedded(name: &str) -> Option<RulesetSource> {
    RULESETS
        .iter()
        .find(|e| e.name == name)
        .map(|e| RulesetSource {
            origin: e.name.to_string(),
            file: e.file.to_string(),
            text: e.ruleset.to_string(),
            scripts: e
                .scripts
                .iter()
                .map(|(f, t)| (format!("{}/scripts/{f}", e.name), t.to_string()))
                .collect(),
        })
}

/// A ruleset file or folder on disk (a folder holds ruleset.yaml and maybe scripts/), each
/// file held to `limits`.
pub fn from_path(path: &Path, limits: &Limits) -> Result<RulesetSource, String> {
    let (file, dir) = if path.is_dir() {
        (path.join("ruleset.yaml"), path.to_path_buf())
    } else {
        (
            path.to_path_buf(),
            path.parent().map(Path::to_path_buf).unwrap_or_default(),
        )
    };
    let text = read_text(&file, limits)?;
    let mut scripts = Vec::new();
    let script_dir = dir.join("scripts");
    if let Ok(entries) = std::fs::read_dir(&script_dir) {
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.retain(|p| p.extension().is_some_and(|x| x == "rhai"));
        paths.sort();
        for p in paths {
            let t = read_text(&p, limits)?;
            scripts.push((p.display().to_string(), t));
        }
    }
    Ok(RulesetSource {
        origin: path.display().to_string(),
        file: file.display().to_string(),
        text,
        scripts,
    })
}

/// Reads a text file: a regular file (not a pipe or a device, which could block or never
/// end) of at most `limits.file_bytes` (`--limit bytes`, 16 MiB), in UTF-8.
pub fn read_text(path: &Path, limits: &Limits) -> Result<String, String> {
    use std::io::Read as _;
    let shown = path.display();
    let max = limits.file_bytes;
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {}", plain_io(&e)))?;
    if !meta.is_file() {
        return Err(format!("cannot read {shown}: not a regular file"));
    }
    let too_large = |len: u64| {
        format!("cannot read {shown}: {len} bytes, more than the {max} a file may have (--limit bytes=N raises the limit)")
    };
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    // A file may grow between the look and the read, or claim a size it does not have
    // (files under /proc): the read itself stops past the limit.
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {}", plain_io(&e)))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {}", plain_io(&e)))?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read {shown}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    // A byte-order mark is not part of the text.
    Ok(text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text))
}

/// Reads a file of any size that must be a regular file (the JSON Lines `merge` joins):
/// a pipe or a device could block or never end.
pub fn read_regular(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {}", plain_io(&e)))?;
    if !meta.is_file() {
        return Err(format!("cannot read {shown}: not a regular file"));
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {}", plain_io(&e)))
}

pub fn plain_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Resolves `<RULESET>`: an embedded name first, then a path (its files held to `limits`).
pub fn resolve(
    spec: &str,
    relative_to: Option<&Path>,
    limits: &Limits,
) -> Result<RulesetSource, String> {
    if let Some(s) = embedded(spec) {
        return Ok(s);
    }
    let path = match relative_to {
        Some(dir) if Path::new(spec).is_relative() => dir.join(spec),
        _ => PathBuf::from(spec),
    };
    if path.exists() {
        return from_path(&path, limits);
    }
    let names: Vec<String> = RULESETS.iter().map(|e| e.name.to_string()).collect();
    let hint = frontier_interpreter::hints::did_you_mean(spec, &names);
    Err(format!("unknown ruleset '{spec}'{hint}: not an embedded ruleset ({}) nor an existing file or folder", names.join(", ")))
}

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
    let base_dir = Path::new(&source.file).parent().map(Path::to_path_buf);
    let limits = settings.limits;
    let resolver = move |name: &str| resolve(name, base_dir.as_deref(), &limits);
    settings.load(source, &resolver, params)
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// An embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// Print only this file of the ruleset (`ruleset.yaml`, `scripts/scoring.rhai`), as it is.
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
