//! Semantic tokens: each name written inside an expression or template string coloured by
//! what it means (a variable, a parameter or local, a function or built-in, a procedure,
//! a column, a row, a table), where a YAML highlighter sees only a string.

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensLegend};

use crate::index::{DeclKind, Role};
use crate::navigate::{meaning, Target};
use crate::text::Lines;
use crate::workspace::Ruleset;

/// The token types, in the legend's order (a token names its type by its place here).
const TYPES: [SemanticTokenType; 9] = [
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::METHOD,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::TYPE,
    SemanticTokenType::MACRO,
    SemanticTokenType::KEYWORD,
];

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

fn type_of(target: &Target) -> SemanticTokenType {
    match target {
        Target::Decl(_) | Target::Local(..) | Target::Rule(_) => SemanticTokenType::VARIABLE,
        Target::Builtin(_) | Target::Script(_) => SemanticTokenType::FUNCTION,
        Target::Statement(_) => SemanticTokenType::KEYWORD,
    }
}

fn type_of_decl(kind: DeclKind) -> SemanticTokenType {
    match kind {
        DeclKind::Param => SemanticTokenType::MACRO,
        DeclKind::Table => SemanticTokenType::TYPE,
        DeclKind::Column => SemanticTokenType::PROPERTY,
        DeclKind::Row => SemanticTokenType::ENUM_MEMBER,
        DeclKind::State | DeclKind::Zone | DeclKind::Board | DeclKind::Stat => {
            SemanticTokenType::VARIABLE
        }
        DeclKind::Function => SemanticTokenType::FUNCTION,
        DeclKind::Procedure => SemanticTokenType::METHOD,
    }
}

/// The tokens of file number `file` of a ruleset: the names of its expressions and
/// templates, and the procedures `call:` names.
pub fn of_file(ruleset: &Ruleset, file: usize) -> SemanticTokens {
    let f = &ruleset.files[file];
    let lines = Lines::new(&f.text);
    let mut data = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for u in &f.index.uses {
        let ty = match (&u.role, meaning(ruleset, file, u)) {
            (Role::Declares, _) | (_, Some(Target::Local(..))) => SemanticTokenType::PARAMETER,
            (Role::Field { .. }, _) => SemanticTokenType::PROPERTY,
            (Role::Row { .. }, _) => SemanticTokenType::ENUM_MEMBER,
            (_, Some(Target::Decl((df, dd)))) => {
                type_of_decl(ruleset.files[df].index.decls[dd].kind)
            }
            (_, Some(target)) => type_of(&target),
            (_, None) => continue,
        };
        let start = lines.position(u.span.start);
        let end = lines.position(u.span.end);
        if end.line != start.line || end.character <= start.character {
            continue;
        }
        let Some(index) = TYPES.iter().position(|t| *t == ty) else {
            continue;
        };
        let delta_line = start.line - last_line;
        let delta_start = if delta_line == 0 {
            start.character - last_start
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: index as u32,
            token_modifiers_bitset: 0,
        });
        (last_line, last_start) = (start.line, start.character);
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
