//! The rulesets the server offers: the embedded ones (variants included) and each ruleset
//! folder or file of `--rulesets DIR`, loaded once at start. A game with other parameter
//! values loads its ruleset again with them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use frontier_interpreter::frontier_grammar::trace::RulesetRef;
use frontier_interpreter::{Game, RulesetSource};
use frontier_study::Settings;
use serde::Serialize;

use crate::source;

pub struct Entry {
    pub name: String,
    /// Where it was read from: an embedded name, or a file or folder under --rulesets.
    origin: Origin,
    pub game: Arc<Game>,
    /// The settings it was loaded with, which it is loaded with again for other parameters.
    settings: Settings,
}

enum Origin {
    Embedded,
    Path(PathBuf),
}

/// What the start page and `GET /api/rulesets` show of a ruleset.
#[derive(Serialize)]
pub struct Summary {
    pub name: String,
    pub title: String,
    pub min_players: u8,
    pub max_players: u8,
    pub summary: Option<String>,
    /// The ruleset a variant extends, as it names it.
    pub variant_of: Option<String>,
    pub changes: Vec<String>,
    pub params: Vec<ParamSummary>,
}

#[derive(Serialize)]
pub struct ParamSummary {
    pub name: String,
    pub value: i64,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub doc: Option<String>,
}

pub struct Catalogue {
    pub entries: Vec<Entry>,
    /// Rulesets of --rulesets that do not load, with why (shown on the start page).
    pub broken: Vec<(String, String)>,
}

impl Catalogue {
    /// The embedded rulesets, then those of `dir` (each folder with a ruleset.yaml, and
    /// each .yaml file), in name order, loaded with `settings`.
    pub fn load(dir: Option<&Path>, settings: &Settings) -> Result<Catalogue, String> {
        let mut entries = Vec::new();
        let mut broken = Vec::new();
        for e in source::RULESETS {
            match source::load_ruleset(e.name, settings) {
                Ok(game) => entries.push(Entry {
                    name: e.name.to_string(),
                    origin: Origin::Embedded,
                    game: Arc::new(game),
                    settings: *settings,
                }),
                Err(message) => broken.push((e.name.to_string(), message)),
            }
        }
        if let Some(dir) = dir {
            let listing = std::fs::read_dir(dir)
                .map_err(|e| format!("--rulesets {}: {}", dir.display(), source::plain_io(&e)))?;
            let mut paths: Vec<PathBuf> =
                listing.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.retain(|p| {
                p.join("ruleset.yaml").is_file()
                    || p.extension().is_some_and(|x| x == "yaml" || x == "yml")
            });
            paths.sort();
            for path in paths {
                let shown = path.display().to_string();
                match source::load_ruleset(&shown, settings) {
                    Ok(game) if entries.iter().any(|e: &Entry| e.name == game.meta.name) => broken
                        .push((
                            shown,
                            format!("its name '{}' is taken by another ruleset", game.meta.name),
                        )),
                    Ok(game) => entries.push(Entry {
                        name: game.meta.name.clone(),
                        origin: Origin::Path(path),
                        game: Arc::new(game),
                        settings: *settings,
                    }),
                    Err(message) => broken.push((shown, message)),
                }
            }
        }
        Ok(Catalogue { entries, broken })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    pub fn summaries(&self) -> Vec<Summary> {
        self.entries.iter().map(Entry::summary).collect()
    }
}

impl Entry {
    /// Whether its games are compiled when they start (`--compile`).
    pub fn compile(&self) -> frontier_study::Compile {
        self.settings.compile
    }

    pub fn summary(&self) -> Summary {
        let m = &self.game.meta;
        Summary {
            name: self.name.clone(),
            title: m.title.clone(),
            min_players: m.min_players,
            max_players: m.max_players,
            summary: m.summary.as_ref().map(|s| s.trim().to_string()),
            variant_of: m.variant.as_ref().map(|v| v.extends.clone()),
            changes: m
                .variant
                .as_ref()
                .map(|v| v.changes.clone())
                .unwrap_or_default(),
            params: self
                .game
                .params
                .iter()
                .map(|p| ParamSummary {
                    name: p.name.clone(),
                    value: p.value,
                    min: p.min,
                    max: p.max,
                    doc: p.doc.clone(),
                })
                .collect(),
        }
    }

    /// How a trace names this ruleset.
    pub fn reference(&self) -> RulesetRef {
        match &self.origin {
            Origin::Embedded => RulesetRef::Name(self.name.clone()),
            Origin::Path(p) => RulesetRef::Path(
                std::fs::canonicalize(p)
                    .unwrap_or_else(|_| p.clone())
                    .display()
                    .to_string(),
            ),
        }
    }

    /// The game with these parameter values (the loaded one when there are none).
    pub fn with_params(&self, params: &[(String, i64)]) -> Result<Arc<Game>, String> {
        if params.is_empty() {
            return Ok(self.game.clone());
        }
        let source: RulesetSource = match &self.origin {
            Origin::Embedded => source::embedded(&self.name)
                .ok_or_else(|| format!("{} is not embedded", self.name))?,
            Origin::Path(p) => source::from_path(p, &self.settings.limits)?,
        };
        source::load_source(&source, params, &self.settings)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    }
}
