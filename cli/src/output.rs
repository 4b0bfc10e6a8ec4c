//! Files the commands write (traces, results, reports): checked before a command runs, and
//! written whole or not at all.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `path` may receive a written file: a new path in an existing folder, or a
/// regular file to replace. A link, a FIFO, a device or a folder is refused, so that a
/// write never goes through a link or blocks on a pipe; commands check before they run.
pub fn check_file(path: &Path) -> Result<(), String> {
    if path.as_os_str().is_empty() {
        return Err("an empty file name".into());
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) if m.is_dir() => Err(format!("{} is a folder, not a file to write", path.display())),
        Ok(_) => Err(format!("{} is not a regular file (a link, a pipe or a device): write to a new path or a regular file", path.display())),
        Err(_) => {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if parent.is_dir() {
                Ok(())
            } else {
                Err(format!("cannot write {}: the folder {} does not exist", path.display(), parent.display()))
            }
        }
    }
}

/// Whether `dir` may receive files: an existing folder, or a new one whose parent exists.
pub fn check_folder(dir: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(format!("{} is not a folder", dir.display())),
        Err(_) => {
            let parent = dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if parent.is_dir() {
                Ok(())
            } else {
                Err(format!(
                    "cannot make the folder {}: {} does not exist",
                    dir.display(),
                    parent.display()
                ))
            }
        }
    }
}

/// A temporary path beside `path` (same folder, so renaming it is atomic).
fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    path.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// Writes a file whole or not at all: into a temporary file beside it, then renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    check_file(path)?;
    let tmp = partial_path(path);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "cannot write {}: {}",
            path.display(),
            crate::source::plain_io(&e)
        ));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!(
            "cannot write {}: {}",
            path.display(),
            crate::source::plain_io(&e)
        )
    })
}
