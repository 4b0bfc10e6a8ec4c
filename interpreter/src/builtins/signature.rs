//! What each op's arguments are once lowered: how many, and which are per-element
//! arguments (lambdas). Part of the compile half: the verifier (`verify.rs`) checks every
//! call in the IR against it, so that the run half may index its arguments freely.

use crate::ir::Op;

/// How many arguments an op takes, and which of them are per-element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    pub min: usize,
    /// At most this many; `None`: any number from `min`.
    pub max: Option<usize>,
    /// The positions of its per-element arguments ([`crate::ir::Expr::Lambda`]s).
    pub lambdas: &'static [usize],
}

const fn exactly(n: usize) -> Signature {
    Signature {
        min: n,
        max: Some(n),
        lambdas: &[],
    }
}

/// A list (or a seat) and a per-element argument.
const PER_ELEMENT: Signature = Signature {
    min: 2,
    max: Some(2),
    lambdas: &[1],
};

impl Signature {
    /// Whether `n` arguments fit.
    pub fn takes(self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }
}

/// The signature of `op`: one arm per op, so that an op added to the IR without one does
/// not compile.
pub fn signature(op: Op) -> Signature {
    match op {
        Op::Len | Op::CountAll | Op::Sum | Op::MinOfList | Op::MaxOfList => exactly(1),
        Op::First | Op::Last | Op::Reverse | Op::NextPlayer | Op::Abs => exactly(1),
        Op::Cells | Op::Holes | Op::Neighbours | Op::HexNeighbours => exactly(1),
        Op::Components => exactly(1),
        Op::Step | Op::Ray => exactly(2),
        Op::CellAt => exactly(3),
        Op::Lines => Signature {
            min: 1,
            max: Some(2),
            lambdas: &[],
        },
        Op::Count | Op::Take | Op::Drop | Op::Contains | Op::IndexOf | Op::Concat => exactly(2),
        Op::Range | Op::Colour | Op::Pad | Op::At | Op::Pos | Op::Rotate => exactly(2),
        Op::Distance | Op::Knows => exactly(2),
        Op::Placements => exactly(3),
        Op::CountIf | Op::Any | Op::All | Op::Find | Op::Map | Op::SortBy | Op::SumOf => {
            PER_ELEMENT
        }
        Op::MinOf | Op::MaxOf | Op::Argmax | Op::Argmin | Op::NextPlayerIf => PER_ELEMENT,
        Op::Groups => PER_ELEMENT,
        Op::SeatsFrom => Signature {
            min: 1,
            max: Some(2),
            lambdas: &[1],
        },
        Op::OnEdge => Signature {
            min: 1,
            max: Some(2),
            lambdas: &[],
        },
        Op::Min | Op::Max => Signature {
            min: 2,
            max: None,
            lambdas: &[],
        },
        Op::Text => Signature {
            min: 1,
            max: None,
            lambdas: &[],
        },
    }
}
