//! Where rulesets come from: the rulesets embedded at build time (every folder of
//! rulesets/ and each of its variants/NAME.yaml as `<ruleset>-NAME`), and ruleset files
//! and folders on disk, each file read held to the bounds of a run. Front ends (the
//! `frontier` binary, the Python package) find a ruleset by name or path here.

use std::path::{Path, PathBuf};

use frontier_interpreter::model::Limits;
use frontier_interpreter::RulesetSource;

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

pub struct Embedded {
    pub name: &'static str,
    /// The file's path under rulesets/ (for messages): `go-west/ruleset.yaml`, or
    /// `grand-junction/variants/simplified.yaml` for an embedded variant.
    pub file: &'static str,
    pub ruleset: &'static str,
    pub scripts: &'static [(&'static str, &'static str)],
    /// Its other files, by their path in its folder: `RULES.md` and every file under
    /// `traces/` (`traces/setup.trace`, `traces/positions/end.yaml`); none for a variant.
    pub files: &'static [(&'static str, &'static str)],
}

/// The other files of an embedded ruleset (see [`Embedded::files`]); none for a name
/// that is not embedded.
pub fn embedded_files(name: &str) -> &'static [(&'static str, &'static str)] {
    RULESETS
        .iter()
        .find(|e| e.name == name)
        .map_or(&[], |e| e.files)
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
    // No scripts folder is no scripts; one that cannot be read (a link to itself, a file,
    // no permission) is an error, not scripts silently left out.
    let unreadable = |e: std::io::Error| {
        format!(
            "cannot read the scripts folder {}: {}",
            script_dir.display(),
            plain_folder_error(&e)
        )
    };
    let entries = match std::fs::read_dir(&script_dir) {
        Ok(entries) => Some(entries),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(unreadable(e)),
    };
    if let Some(entries) = entries {
        let mut paths: Vec<PathBuf> = entries
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(unreadable)?;
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

/// Why a folder cannot be listed, in plain words.
fn plain_folder_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotADirectory => "not a folder".into(),
        // `ErrorKind::FilesystemLoop` (ELOOP) is not yet stable to name.
        kind if format!("{kind:?}") == "FilesystemLoop" => {
            "a link that leads back to itself".into()
        }
        _ => plain_io(e),
    }
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

/// What finds the ruleset a ruleset's `extends:` names: an embedded name, or a path
/// relative to the file of `source`, each file held to `limits`.
pub fn extends_resolver(
    source: &RulesetSource,
    limits: Limits,
) -> impl Fn(&str) -> Result<RulesetSource, String> {
    let base_dir = Path::new(&source.file).parent().map(Path::to_path_buf);
    move |name: &str| resolve(name, base_dir.as_deref(), &limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ruleset folder written for one test, removed after it.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str) -> Folder {
            let dir = std::env::temp_dir()
                .join(format!("frontier-sources-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("ruleset.yaml"), "name: x\n").unwrap();
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A scripts folder that cannot be read is an error naming it: it was skipped, and the
    /// ruleset's calls of its functions then read as misspellings of built-ins.
    #[test]
    fn a_scripts_folder_that_cannot_be_read_is_an_error() {
        let limits = Limits::default();
        let none = Folder::new("none");
        assert!(from_path(&none.0, &limits).unwrap().scripts.is_empty());
        let file = Folder::new("file");
        std::fs::write(file.0.join("scripts"), "").unwrap();
        assert_eq!(
            from_path(&file.0, &limits).unwrap_err(),
            format!(
                "cannot read the scripts folder {}: not a folder",
                file.0.join("scripts").display()
            )
        );
        #[cfg(unix)]
        {
            let looped = Folder::new("loop");
            std::os::unix::fs::symlink("scripts", looped.0.join("scripts")).unwrap();
            assert_eq!(
                from_path(&looped.0, &limits).unwrap_err(),
                format!(
                    "cannot read the scripts folder {}: a link that leads back to itself",
                    looped.0.join("scripts").display()
                )
            );
        }
    }
}
