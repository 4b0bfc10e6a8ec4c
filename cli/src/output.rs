//! Files the commands write (traces, results, reports): checked before a command runs, and
//! written whole or not at all.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// `--force`, shared by the commands that write files: whether a file already at an
/// output path may be replaced. Without it a command refuses before it runs, so a typo in
/// a path never costs a file (inputs are refused even with it).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ForceArg {
    /// Replace output files that already exist (--out, --trace-out, --report, --json);
    /// without it, a command refuses to run rather than replace one.
    #[arg(long)]
    force: bool,
}

/// What a command may do to a file already at one of its output paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse the output (the default).
    Keep,
    /// Replace it (`--force`).
    Replace,
}

impl ForceArg {
    pub fn existing(self) -> Existing {
        if self.force {
            Existing::Replace
        } else {
            Existing::Keep
        }
    }
}

/// Whether `path` may receive the output named `what` (`--out`): [`check_file`], and a
/// file already there only with `--force`.
pub fn check_output(path: &Path, existing: Existing, what: &str) -> Result<(), String> {
    check_file(path)?;
    if existing == Existing::Keep && std::fs::symlink_metadata(path).is_ok() {
        return Err(format!(
            "{what} {} exists: it is left as it is; name a new file, or give --force to replace it",
            path.display()
        ));
    }
    Ok(())
}

/// Whether the folder `dir` may receive the files named by `name` (`game-NNNN.trace`):
/// [`check_folder`], and one that already holds such files only with `--force` (the run
/// would mix its files with an earlier run's, or replace them).
pub fn check_output_folder(
    dir: &Path,
    existing: Existing,
    what: &str,
    is_output: impl Fn(&str) -> bool,
) -> Result<(), String> {
    check_folder(dir)?;
    if existing == Existing::Replace {
        return Ok(());
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let held = entries
        .filter_map(Result::ok)
        .filter(|e| is_output(&e.file_name().to_string_lossy()))
        .count();
    if held > 0 {
        return Err(format!(
            "{what} {} already holds {held} file{} of an earlier run: they are left as they are; name a new folder, or give --force to replace them",
            dir.display(),
            if held == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// Refuses a trace larger than the files `check` and `play --resume` read (`--limit
/// bytes`, as the game was loaded with): a written trace always reads back.
pub fn check_trace_size(
    text: &str,
    limits: &frontier_interpreter::model::Limits,
) -> Result<(), String> {
    let bound = limits.file_bytes;
    if text.len() as u64 > bound {
        return Err(format!(
            "the trace would be {} bytes, more than the {bound} that `check` and `play --resume` read: it is not written; play with a larger --limit bytes=N (and read it with the same)",
            text.len()
        ));
    }
    Ok(())
}

/// The first of `path`, `STEM-2.EXT`, `STEM-3.EXT`, … that names no file: where a file
/// the user did not name is written without replacing one.
pub fn free_path(path: &Path) -> PathBuf {
    if std::fs::symlink_metadata(path).is_err() {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2u64..)
        .map(|k| path.with_file_name(format!("{stem}-{k}{ext}")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| path.to_path_buf())
}

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

/// Where a file to write will be: its folder resolved (the file may not exist yet).
fn target_of(path: &Path) -> Option<PathBuf> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some(std::fs::canonicalize(parent).ok()?.join(path.file_name()?))
}

/// Refuses two outputs that name the same file (`what` names their options): one would be
/// lost under the other.
pub fn refuse_same_output(a: &Path, b: &Path, what: &str) -> Result<(), String> {
    match (target_of(a), target_of(b)) {
        (Some(x), Some(y)) if x == y => Err(format!(
            "{what} both name {}: one report would be lost; give each its own file",
            a.display()
        )),
        _ => Ok(()),
    }
}

/// Refuses an output that would replace one of the inputs (`what` names the option):
/// two paths that name the same existing file.
pub fn refuse_input(out: &Path, input: &Path, what: &str) -> Result<(), String> {
    match (std::fs::canonicalize(out), std::fs::canonicalize(input)) {
        (Ok(a), Ok(b)) if a == b => Err(format!(
            "{what} {} is {}, an input of this command: it is left as it is; name another file",
            out.display(),
            input.display()
        )),
        _ => Ok(()),
    }
}

/// Refuses an output that would replace a file of the ruleset at `ruleset` (a ruleset
/// file, or any file of a ruleset folder but its traces): its rules are an input.
pub fn refuse_ruleset_file(out: &Path, ruleset: &Path, what: &str) -> Result<(), String> {
    refuse_input(out, ruleset, what)?;
    let (Ok(out_full), Ok(folder)) = (std::fs::canonicalize(out), std::fs::canonicalize(ruleset))
    else {
        return Ok(());
    };
    let is_trace = out_full.extension().is_some_and(|e| e == "trace");
    if folder.is_dir() && out_full.starts_with(&folder) && !is_trace {
        return Err(format!(
            "{what} {} is a file of the ruleset {}: it is left as it is; name another file (a .trace file)",
            out.display(),
            ruleset.display()
        ));
    }
    Ok(())
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

/// The message of a failed write of `path`.
fn cannot_write(path: &Path, e: &std::io::Error) -> String {
    format!(
        "cannot write {}: {}",
        path.display(),
        crate::source::plain_io(e)
    )
}

/// Writes a file whole or not at all: into a temporary file beside it, then renamed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write(|w| w.write_all(bytes))?;
    file.finish()
}

/// A file written a piece at a time (the lines of games as they are played), and still
/// whole or not at all: the pieces go into a temporary file beside it, which
/// [`AtomicFile::finish`] renames onto it. Dropped unfinished (a game or a write failed),
/// the temporary file is removed; a process killed meanwhile leaves it behind
/// (`.NAME.partial-PID`), never a part of the file.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// The temporary file of `path`, created now: a place that cannot be written is
    /// refused before anything is played.
    pub fn create(path: &Path) -> Result<AtomicFile, String> {
        check_file(path)?;
        let mut file = AtomicFile {
            path: path.to_path_buf(),
            tmp: partial_path(path),
            file: None,
        };
        match File::create(&file.tmp) {
            Ok(f) => file.file = Some(BufWriter::new(f)),
            // The file is written beside its place and renamed: a folder that takes no new
            // file (`/proc`, a read-only mount) is the cause, whatever the error's kind.
            Err(e) => {
                let folder = path
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                return Err(format!(
                    "cannot write {}: its folder {} takes no new file ({e}); files are written whole, beside their place, then renamed onto it",
                    path.display(),
                    folder.display()
                ));
            }
        }
        Ok(file)
    }

    /// The message of a failed write (the temporary file is removed when the file is
    /// dropped).
    fn failed(&self, e: &std::io::Error) -> String {
        cannot_write(&self.path, e)
    }

    /// Writes the next piece.
    pub fn write(
        &mut self,
        write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
    ) -> Result<(), String> {
        let result = match &mut self.file {
            Some(f) => write(f),
            None => Ok(()),
        };
        result.map_err(|e| self.failed(&e))
    }

    /// The file complete: written out, then renamed onto its path.
    pub fn finish(mut self) -> Result<(), String> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let written = file
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        written.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            self.failed(&e)
        })
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Files written one by one into a folder as a run's games arrive, and still all or none:
/// each is written beside its place under a temporary name, and [`StagedFiles::finish`]
/// renames them all onto their places. Dropped unfinished (a game or a write failed), the
/// files written are removed, and the folder too when it was made for them and is left
/// empty. The files are numbered (`name` gives file `i`'s name) and added in order, so
/// what was written is known without a list of it.
pub struct StagedFiles<F: Fn(u64) -> String> {
    dir: PathBuf,
    name: F,
    /// Whether the folder was made for these files (it did not exist).
    made: bool,
    /// The numbers of the files written: `first..next`.
    first: u64,
    next: u64,
    finished: bool,
}

impl<F: Fn(u64) -> String> StagedFiles<F> {
    /// Files of `dir`, numbered from `first`; the folder is made with the first file.
    pub fn new(dir: &Path, name: F, first: u64) -> StagedFiles<F> {
        StagedFiles {
            dir: dir.to_path_buf(),
            name,
            made: false,
            first,
            next: first,
            finished: false,
        }
    }

    fn path(&self, i: u64) -> PathBuf {
        self.dir.join((self.name)(i))
    }

    /// Writes file `i` (the one after the last added) under its temporary name.
    pub fn add(&mut self, i: u64, bytes: &[u8]) -> Result<(), String> {
        debug_assert_eq!(i, self.next, "files are added in order");
        if self.next == self.first && !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir).map_err(|e| {
                format!(
                    "cannot create {}: {}",
                    self.dir.display(),
                    crate::source::plain_io(&e)
                )
            })?;
            self.made = true;
        }
        let path = self.path(i);
        let tmp = partial_path(&path);
        self.next = i + 1;
        check_file(&path)?;
        File::create(&tmp)
            .and_then(|mut f| {
                f.write_all(bytes)?;
                f.sync_all()
            })
            .map_err(|e| cannot_write(&path, &e))
    }

    /// Every file written, renamed onto its place.
    pub fn finish(mut self) -> Result<(), String> {
        for i in self.first..self.next {
            let path = self.path(i);
            std::fs::rename(partial_path(&path), &path).map_err(|e| cannot_write(&path, &e))?;
            // Renamed: not to be removed if a later one fails.
            self.first = i + 1;
        }
        self.finished = true;
        Ok(())
    }
}

impl<F: Fn(u64) -> String> Drop for StagedFiles<F> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        for i in self.first..self.next {
            let _ = std::fs::remove_file(partial_path(&self.path(i)));
        }
        if self.made {
            // Only when empty: the files renamed before a failure stay.
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}
