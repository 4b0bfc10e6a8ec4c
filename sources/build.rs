//! Embeds every ruleset under ../rulesets into the library, so `frontier play go-west`
//! works on a fresh machine with no path. A ruleset folder's `variants/NAME.yaml` files are
//! embedded as `<ruleset>-NAME`.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut out = String::from("pub const RULESETS: &[Embedded] = &[\n");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.sort();
    for dir in dirs {
        let main = dir.join("ruleset.yaml");
        if !main.is_file() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", dir.display());
        println!("cargo:rerun-if-changed={}", main.display());
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let mut scripts: Vec<_> = std::fs::read_dir(dir.join("scripts"))
            .map(|r| {
                r.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "rhai"))
                    .collect()
            })
            .unwrap_or_default();
        scripts.sort();
        let file = format!("{name}/ruleset.yaml");
        let _ = write!(out, "    Embedded {{ name: {name:?}, file: {file:?}, ruleset: include_str!({:?}), scripts: &[", main.display().to_string());
        for s in scripts {
            println!("cargo:rerun-if-changed={}", s.display());
            let file = s
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let _ = write!(
                out,
                "({file:?}, include_str!({:?})), ",
                s.display().to_string()
            );
        }
        out.push_str("], files: &[");
        // Its RULES.md and every file under traces/ (traces and their positions), for
        // `frontier show NAME --file RULES.md` on a machine without the repository.
        let mut files = Vec::new();
        if dir.join("RULES.md").is_file() {
            files.push(dir.join("RULES.md"));
        }
        files_under(&dir.join("traces"), &mut files);
        files.sort();
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
            let shown = f
                .strip_prefix(&dir)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let _ = write!(
                out,
                "({shown:?}, include_str!({:?})), ",
                f.display().to_string()
            );
        }
        out.push_str("] },\n");
        // Each variants/NAME.yaml is embedded too, as `<ruleset>-NAME`: it `extends:` its
        // ruleset by name, which brings the base's scripts.
        let vdir = dir.join("variants");
        println!("cargo:rerun-if-changed={}", vdir.display());
        let mut variants: Vec<_> = std::fs::read_dir(&vdir)
            .map(|r| {
                r.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
                    .collect()
            })
            .unwrap_or_default();
        variants.sort();
        for v in variants {
            println!("cargo:rerun-if-changed={}", v.display());
            let stem = v.file_stem().and_then(|n| n.to_str()).unwrap_or_default();
            let vname = format!("{name}-{stem}");
            let vfile = format!("{name}/variants/{stem}.yaml");
            let _ = writeln!(out, "    Embedded {{ name: {vname:?}, file: {vfile:?}, ruleset: include_str!({:?}), scripts: &[], files: &[] }},", v.display().to_string());
        }
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The text files under `dir` (`.trace`, `.yaml`, `.md`), in any depth of folders.
fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
        if path.is_dir() {
            files_under(&path, out);
        } else if path
            .extension()
            .is_some_and(|x| x == "trace" || x == "yaml" || x == "md")
        {
            out.push(path);
        }
    }
}
