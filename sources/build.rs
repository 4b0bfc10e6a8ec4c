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
            let _ = writeln!(out, "    Embedded {{ name: {vname:?}, file: {vfile:?}, ruleset: include_str!({:?}), scripts: &[] }},", v.display().to_string());
        }
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
