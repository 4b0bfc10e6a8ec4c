//! Document symbols: a ruleset's sections, each with what it declares (a table with its
//! columns and rows).

use lsp_types::{DocumentSymbol, SymbolKind};

use crate::index::{DeclKind, FileIndex};
use crate::text::Lines;
use crate::yaml::Node;

fn symbol_kind(kind: DeclKind) -> SymbolKind {
    match kind {
        DeclKind::Param => SymbolKind::CONSTANT,
        DeclKind::Table => SymbolKind::STRUCT,
        DeclKind::Column => SymbolKind::FIELD,
        DeclKind::Row => SymbolKind::ENUM_MEMBER,
        DeclKind::State | DeclKind::Stat => SymbolKind::VARIABLE,
        DeclKind::Zone | DeclKind::Board => SymbolKind::ARRAY,
        DeclKind::Function => SymbolKind::FUNCTION,
        DeclKind::Procedure => SymbolKind::METHOD,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written to build one.
fn symbol(
    name: &str,
    kind: SymbolKind,
    lines: &Lines,
    whole: std::ops::Range<usize>,
    name_span: std::ops::Range<usize>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: name.to_string(),
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(whole),
        selection_range: lines.range(name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

/// The outline of a ruleset file.
pub fn of_ruleset(text: &str, root: &Node, index: &FileIndex) -> Vec<DocumentSymbol> {
    let lines = Lines::new(text);
    let mut out = Vec::new();
    for (key, value) in root.entries() {
        let Some(section) = key.text() else { continue };
        let whole = key.span.start..value.span.end.max(key.span.end);
        let children: Vec<DocumentSymbol> = index
            .decls
            .iter()
            .filter(|d| {
                d.path.split('.').next() == Some(section)
                    && matches!(d.kind, k if k != DeclKind::Column && k != DeclKind::Row)
            })
            .map(|d| {
                let members: Vec<DocumentSymbol> = index
                    .decls
                    .iter()
                    .filter(|m| {
                        d.kind == DeclKind::Table && m.owner.as_deref() == Some(d.name.as_str())
                    })
                    .map(|m| {
                        symbol(
                            &m.name,
                            symbol_kind(m.kind),
                            &lines,
                            m.whole.clone(),
                            m.span.clone(),
                            Vec::new(),
                        )
                    })
                    .collect();
                symbol(
                    &d.name,
                    symbol_kind(d.kind),
                    &lines,
                    d.whole.clone(),
                    d.span.clone(),
                    members,
                )
            })
            .collect();
        out.push(symbol(
            section,
            SymbolKind::NAMESPACE,
            &lines,
            whole,
            key.span.clone(),
            children,
        ));
    }
    out
}
