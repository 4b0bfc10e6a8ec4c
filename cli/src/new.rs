//! `frontier new NAME`: a new ruleset folder — ruleset.yaml, RULES.md, traces/ — that
//! validates, plays and checks as it is, to be changed into a game.

use std::path::{Path, PathBuf};

use clap::Args;
use frontier_interpreter::model::is_ruleset_name;

use crate::source::plain_io;

#[derive(Args)]
pub struct NewArgs {
    /// The ruleset's name: letters, digits, '-' and '_' (also the name of the folder made).
    pub name: String,
    /// The folder to make it in (the current folder by default).
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
}

/// The files of a new ruleset: path inside its folder, text with `{name}` and `{title}`
/// (and the schema, which ruleset.yaml's first line points editors to).
const FILES: &[(&str, &str)] = &[
    ("ruleset.yaml", include_str!("scaffold/ruleset.yaml")),
    ("RULES.md", include_str!("scaffold/RULES.md")),
    (
        "traces/first-turns.trace",
        include_str!("scaffold/traces/first-turns.trace"),
    ),
];

pub fn run(args: NewArgs) -> Result<(), String> {
    let name = &args.name;
    if !is_ruleset_name(name) {
        // A path given as the name: say how to make the folder elsewhere.
        let path = std::path::Path::new(name);
        let hint = match (path.parent(), path.file_name().and_then(|f| f.to_str())) {
            (Some(parent), Some(last))
                if is_ruleset_name(last) && !parent.as_os_str().is_empty() =>
            {
                format!(
                    "; to make {last} in {}: frontier new {last} --dir {}",
                    parent.display(),
                    parent.display()
                )
            }
            _ => String::new(),
        };
        return Err(format!(
            "'{name}' is not a ruleset name: use letters, digits, '-' and '_' (my-game){hint}"
        ));
    }
    let folder = args.dir.join(name);
    if folder.exists() {
        return Err(format!(
            "{} exists already: choose another name, or remove it first",
            folder.display()
        ));
    }
    // Everything is written beside the folder first, then renamed into place: an error
    // leaves nothing half-made.
    let staging = args.dir.join(format!(".{name}.new-{}", std::process::id()));
    let made = write_files(&staging, name).and_then(|()| {
        std::fs::rename(&staging, &folder)
            .map_err(|e| format!("cannot make {}: {}", folder.display(), plain_io(&e)))
    });
    if made.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    made?;
    println!(
        "made {}/ with ruleset.yaml, RULES.md, traces/first-turns.trace and ruleset.schema.json",
        folder.display()
    );
    let shown = folder.display();
    println!("next: frontier validate {shown}; frontier play {shown}; frontier check {shown}/traces/first-turns.trace");
    Ok(())
}

fn write_files(root: &Path, name: &str) -> Result<(), String> {
    let title = title_of(name);
    let schema = frontier_interpreter::format::schema();
    for (path, text) in FILES
        .iter()
        .copied()
        .chain([("ruleset.schema.json", schema.as_str())])
    {
        let file = root.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make {}: {}", parent.display(), plain_io(&e)))?;
        }
        let text = text.replace("{name}", name).replace("{title}", &title);
        std::fs::write(&file, text)
            .map_err(|e| format!("cannot write {}: {}", file.display(), plain_io(&e)))?;
    }
    Ok(())
}

/// `my-game` → `My game`.
fn title_of(name: &str) -> String {
    let words = name.replace(['-', '_'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_interpreter::runner::{self, Recording};
    use frontier_interpreter::GameRng;
    use frontier_study::Settings;

    #[test]
    fn a_new_ruleset_validates_plays_and_checks() {
        let dir = std::env::temp_dir().join(format!("frontier-new-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        run(NewArgs {
            name: "my-game".into(),
            dir: dir.clone(),
        })
        .expect("made");
        let folder = dir.join("my-game");
        let game = crate::source::load_ruleset(&folder.display().to_string(), &Settings::default())
            .expect("it validates");
        assert_eq!(game.meta.title, "My game");
        for players in 2..=4 {
            let state = game.start(crate::seat_names(players)).unwrap();
            let random = frontier_interpreter::roster::AgentSpec::parse("random").unwrap();
            let mut agents: Vec<Box<dyn frontier_interpreter::agent::Agent>> = (0..players)
                .map(|seat| {
                    random.agent(5, seat, crate::bots::clock)
                        as Box<dyn frontier_interpreter::agent::Agent>
                })
                .collect();
            let (record, _) = runner::run(
                &game,
                state,
                &mut GameRng::new(5),
                &mut agents,
                Recording::Counts,
                100_000,
            )
            .expect("a random game ends");
            assert!(
                record.outcome.scores.iter().any(|s| *s >= 30),
                "{:?}",
                record.outcome.scores
            );
        }
        let args = crate::traces::CheckArgs {
            traces: vec![folder.join("traces/first-turns.trace")],
            all: false,
            coverage: false,
            json: false,
        };
        crate::traces::check(args, &Settings::default()).expect("its trace checks");
        // A second time: the folder exists, and nothing is overwritten.
        assert!(run(NewArgs {
            name: "my-game".into(),
            dir: dir.clone()
        })
        .is_err());
        assert!(run(NewArgs {
            name: "my game".into(),
            dir: dir.clone()
        })
        .is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
