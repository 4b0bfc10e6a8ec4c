//! The ruleset file format as types: what each section of `ruleset.yaml` may hold. The
//! JSON Schema that editors read (`frontier schema`, schema/ruleset.schema.json) is
//! generated from these types, and the loader takes from them the keys each mapping may
//! have (`keys`), so the schema and the loader cannot disagree on the vocabulary. The
//! loader reads the values from the YAML tree itself, to report each problem with its
//! place and in words (see load/).
//!
//! Expressions, templates and statements are free-form here: their language is checked
//! by the loader, not by the schema.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Deserialize;

/// A Frontier ruleset (`ruleset.yaml`), or a variant of one (`extends:`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    /// The format version: 1.
    pub frontier: Option<u32>,
    /// The short name: letters, digits, '-' and '_' (go-west).
    pub name: String,
    /// The full title, for people.
    pub title: Option<String>,
    /// The number of players, or [min, max].
    pub players: Option<Players>,
    /// Which rulebook the ruleset encodes.
    pub rulebook: Option<String>,
    /// The game in a few sentences.
    pub summary: Option<String>,
    /// The ruleset this variant changes: an embedded name or a path.
    pub extends: Option<String>,
    /// Parameters: whole numbers a variant may change.
    pub params: Option<BTreeMap<String, Param>>,
    /// Tables of components: columns and rows.
    pub tables: Option<BTreeMap<String, Table>>,
    /// State variables: single, per player, or per row of a table.
    pub state: Option<BTreeMap<String, StateVar>>,
    /// Zones: ordered collections of rows or players (decks, hands, tracks).
    pub zones: Option<BTreeMap<String, Zone>>,
    /// Boards: square grids of cells.
    pub boards: Option<BTreeMap<String, Board>>,
    /// Functions: named, typed expressions of typed parameters.
    pub functions: Option<BTreeMap<String, Function>>,
    /// The statements run once before play.
    pub setup: Option<Body>,
    /// The statements that run the game after setup.
    pub play: Option<Body>,
    /// Named procedures, run with `call`.
    pub procedures: Option<BTreeMap<String, Procedure>>,
    /// How the players are ranked at the end.
    pub ranking: Option<Ranking>,
    /// Each player's return at the end (as OpenSpiel reports a game's result): who wins,
    /// draws or loses, apart from the scores.
    pub outcome: Option<OutcomeDecl>,
    /// Statistics recorded at the end of each game (`simulate --out`, `balance`): an
    /// expression (a whole number or true/false, read on the final state), or a counter
    /// that statements add to (`{counter: true}`).
    pub stats: Option<BTreeMap<String, Stat>>,
    /// Totals the rules conserve: checked in positions and, in debug builds, after every step.
    pub conserve: Option<BTreeMap<String, Conserve>>,
    /// The lines shown to a person before each decision: templates, or {for, line}.
    pub display: Option<Vec<DisplayLine>>,
    /// What a graphical front end (`frontier serve`) draws: counters, zones as cards,
    /// tracks, boards and a hex map. Without it, every board, every zone and the
    /// per-player variables are drawn.
    pub view: Option<View>,
}

/// The view hints: what a board drawing shows, and how. Each list names declarations.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Variables shown as numbers: per player on each player's panel, single ones above
    /// the board (names of `state:` entries; default: every one per player not `internal`).
    pub counters: Option<Vec<String>>,
    /// Zones drawn as rows of cards, each card with its table row's fields (names of
    /// `zones:` entries; a per-player zone goes on its player's panel). Hidden contents
    /// stay hidden: a card is drawn face down where the viewer may not see it.
    pub zones: Option<Vec<String>>,
    /// Zones drawn as tracks: a row of slots filled in order, one track per index.
    pub tracks: Option<Vec<Track>>,
    /// Boards drawn as grids (their `cell_text` and `cell_colour`); default: every board.
    pub boards: Option<Vec<String>>,
    /// A table with a hex `geometry:` drawn as a map, hexes placed by their coordinates.
    pub hexes: Option<Hexes>,
}

/// A zone drawn as a row of slots.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Track {
    /// The zone (single, per player or per row of a table: one track per index).
    pub zone: String,
    /// How many slots the row has (an expression; `it` is the index); default: as many as
    /// the zone holds.
    pub slots: Option<Scalar>,
    /// The track's title (a template; `it` is the index); default: the zone and its index.
    pub label: Option<Scalar>,
}

/// A hex map drawn from a table with a `geometry:` (offset or axial coordinates).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hexes {
    /// The table of hexes.
    pub table: String,
    /// The hex's first line (a template; `it` is the row); default: its id.
    pub text: Option<Scalar>,
    /// The hex's second line, what lies on it (a template; `it` is the row).
    pub mark: Option<Scalar>,
    /// The hex's fill: a colour name (an expression; `it` is the row).
    pub colour: Option<Scalar>,
    /// Whether the hex is drawn (an expression; `it` is the row); default: every row.
    #[serde(rename = "if")]
    pub shown: Option<Scalar>,
}

/// A display line (a template), or one line per element of a list.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DisplayLine {
    Line(Scalar),
    Each(DisplayEach),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayEach {
    /// { name: list }: the line is shown once per element, with the element in `name`.
    #[serde(rename = "for")]
    pub each: BTreeMap<String, String>,
    /// The template of each line.
    pub line: String,
}

/// A number of players, or [min, max].
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Players {
    Exactly(u8),
    Range([u8; 2]),
}

/// A text, a number or true/false: an expression, a template, a rule reference.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    Text(String),
    Int(i64),
    Number(f64),
    Bool(bool),
}

/// A parameter: a whole number, or {value, min, max, doc, rule}.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Param {
    Value(i64),
    Declared(ParamDecl),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParamDecl {
    pub value: i64,
    /// The least value the parameter takes: a variant or a trace that sets less is
    /// refused at load.
    pub min: Option<i64>,
    /// The greatest value it takes.
    pub max: Option<i64>,
    pub doc: Option<String>,
    /// The rulebook section it encodes.
    pub rule: Option<Scalar>,
}

/// A table: columns (name → type) and rows ([id, value, …] or {id: …, column: …}), or
/// derived as the pairs of another table.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Column name → type: int, bool, str, player or a table name (`?` allows none).
    pub columns: Option<BTreeMap<String, String>>,
    pub rows: Option<Vec<serde_json::Value>>,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
    /// Set when the data is not published: how it was reconstructed.
    pub reconstructed: Option<String>,
    /// How a row reads in displays (a template; `it` is the row).
    pub show: Option<String>,
    /// The rows are hexes of a map, or squares of a grid.
    pub geometry: Option<Geometry>,
    /// The rows are the squares of a rectangular grid, written out: `a1`, `b1`, … with
    /// the columns `x` (from 0, rightward) and `y` (from 0, upward).
    pub grid: Option<GridDecl>,
    /// Every ordered pair of different rows of another table.
    pub pairs: Option<Pairs>,
    /// Every combination of a row of each of two or more tables: column name → table.
    pub product: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Geometry {
    /// The hex layout: even-q or odd-q (which columns sit half a hex lower, offset
    /// coordinates), or axial.
    pub hex: Option<String>,
    /// Instead of hexes, squares: 4 (cells touch by a side) or 8 (by a side or a corner).
    pub square: Option<u8>,
    /// The column of the hex's column coordinate (q in axial coordinates).
    pub x: Option<String>,
    /// The column of the hex's row coordinate (r in axial coordinates).
    pub y: Option<String>,
    /// Instead of coordinates: a text column listing each row's neighbours by id,
    /// separated by blanks.
    pub neighbours: Option<String>,
}

/// `grid:`: a table of the squares of a `width` × `height` grid.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridDecl {
    /// Columns of squares, 1 to 26 (named a, b, …).
    pub width: u8,
    /// Rows of squares, 1 to 99 (numbered from 1).
    pub height: u8,
    /// 8 (the default): squares touch by a side or a corner; 4: by a side only.
    pub neighbours: Option<u8>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pairs {
    /// The table whose rows are paired.
    pub of: String,
}

/// A state variable: an initial value, or its declaration.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StateVar {
    Init(Scalar),
    Declared(StateDecl),
}

/// What a variable, zone or board is indexed by: players or a table (or a list of keys).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Per {
    One(String),
    Keys(Vec<String>),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateDecl {
    /// int (the default), bool, player or a table name.
    #[serde(rename = "type")]
    pub ty: Option<String>,
    pub per: Option<Per>,
    /// The initial value (an expression; `it` is the index).
    pub init: Option<Scalar>,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
    /// Bookkeeping the rules need but players do not read: left out of the state shown
    /// to a player (`?` in `frontier play`).
    pub internal: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// What it holds: players or a table name.
    pub of: String,
    pub per: Option<Per>,
    pub visibility: Option<Visibility>,
    /// Per element (`it`) and player (`viewer`): whether that player sees the element
    /// although the zone's visibility hides it (a token turned face up).
    pub visible_if: Option<Scalar>,
    /// The initial contents: a list expression, or `all` (every row of the table).
    pub init: Option<Scalar>,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    All,
    Owner,
    Count,
    Top,
    None,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub of: String,
    pub per: Option<Per>,
    /// How a cell reads (a template; `it` is the element).
    pub cell_text: Option<String>,
    /// A colour name per cell (an expression; `it` is the element).
    pub cell_colour: Option<String>,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Function {
    /// Parameter name → type, in call order.
    pub params: Option<BTreeMap<String, String>>,
    /// The type of the value.
    pub returns: String,
    /// The expression the function computes.
    pub value: Scalar,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

/// A procedure: its statements, or its declaration.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Procedure {
    Body(Statements),
    Declared(ProcedureDecl),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProcedureDecl {
    /// Parameter name → type.
    pub params: Option<BTreeMap<String, String>>,
    /// The type of the value it gives back with `return:`.
    pub returns: Option<String>,
    /// The statements (`[]` for none).
    #[serde(rename = "do")]
    pub body: Statements,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

/// `setup` or `play`: a list of statements, or {do, doc, rule}.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Body {
    Statements(Statements),
    Declared(BodyDecl),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BodyDecl {
    /// The statements (`[]` for none).
    #[serde(rename = "do")]
    pub body: Statements,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

/// A list of statements (set, add, let, move, if, choose, …: see docs/rulesets.md).
pub type Statements = Vec<serde_json::Value>;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ranking {
    /// Each player's score (an expression; `it` is the player).
    pub score: Scalar,
    /// Keys that break ties, in order.
    pub tiebreak: Option<Vec<Scalar>>,
    pub rule: Option<Scalar>,
    pub doc: Option<String>,
}

/// `outcome:`: the players' returns, read at the end of a game.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeDecl {
    /// Each player's return, a whole number (an expression; `it` is the player).
    pub returns: Scalar,
    /// A positive whole number the returns are divided by (default 1): `scale: 2` makes
    /// a return of 1 a half.
    pub scale: Option<i64>,
    pub rule: Option<Scalar>,
    pub doc: Option<String>,
}

/// A total the rules conserve (a player's tokens across hand, tracks and bank).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Conserve {
    /// players, a table name, or left out (one check).
    pub per: Option<Per>,
    /// What must hold (true/false; `it` is the player or row with `per`).
    pub holds: Scalar,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

/// A statistic: an expression, or {value, doc, rule}, or a counter {counter: true, doc, rule}.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Stat {
    Value(Scalar),
    Declared(StatDecl),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatDecl {
    /// What is recorded: an expression of the final state, a whole number or true/false.
    pub value: Option<Scalar>,
    /// true: a whole number from 0 that statements change like a state variable of the
    /// same name (`add: {NAME: 1}`); recorded as it stands at the end. Not shown in the
    /// state, logs or descriptions of a game: it is for results only.
    pub counter: Option<bool>,
    pub doc: Option<String>,
    pub rule: Option<Scalar>,
}

/// The JSON Schema (draft-07) of ruleset files, as text.
pub fn schema() -> String {
    let schema = schemars::schema_for!(RulesetFile);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// The keys a mapping of type `T` may have, in the order the type declares them: what
/// the loader accepts (and names in "expected one of" messages).
fn keys<T: JsonSchema>() -> Vec<String> {
    let schema = schemars::schema_for!(T);
    schema
        .schema
        .object
        .map(|o| o.properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// The keys of each section, worked out once.
pub struct Keys {
    pub top: Vec<String>,
    pub param: Vec<String>,
    pub table: Vec<String>,
    pub geometry: Vec<String>,
    pub pairs: Vec<String>,
    pub grid: Vec<String>,
    pub state: Vec<String>,
    pub zone: Vec<String>,
    pub board: Vec<String>,
    pub function: Vec<String>,
    pub procedure: Vec<String>,
    /// `setup` and `play` in their mapping form.
    pub body: Vec<String>,
    pub ranking: Vec<String>,
    pub outcome: Vec<String>,
    pub stat: Vec<String>,
    pub conserve: Vec<String>,
    pub view: Vec<String>,
    pub track: Vec<String>,
    pub hexes: Vec<String>,
}

pub fn key_lists() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| Keys {
        top: keys::<RulesetFile>(),
        param: keys::<ParamDecl>(),
        table: keys::<Table>(),
        geometry: keys::<Geometry>(),
        pairs: keys::<Pairs>(),
        grid: keys::<GridDecl>(),
        state: keys::<StateDecl>(),
        zone: keys::<Zone>(),
        board: keys::<Board>(),
        function: keys::<Function>(),
        procedure: keys::<ProcedureDecl>(),
        body: keys::<BodyDecl>(),
        ranking: keys::<Ranking>(),
        outcome: keys::<OutcomeDecl>(),
        stat: keys::<StatDecl>(),
        conserve: keys::<Conserve>(),
        view: keys::<View>(),
        track: keys::<Track>(),
        hexes: keys::<Hexes>(),
    })
}
