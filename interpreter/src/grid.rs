//! Square grids of cells without bounds: the town a player builds, a map of tiles. A grid
//! holds one element per occupied cell; placing a rectangular piece writes over what lies
//! beneath (pieces may cover each other; nothing slides under).
//!
//! Everything here is pure geometry over element codes; the machine and the built-ins
//! give it meaning. Cells are kept sorted in reading order (row, then column), so every
//! listing is deterministic.

use std::collections::BTreeSet;

/// A cell's position: rows grow downward, columns rightward; the origin is the first
/// piece's top-left cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub row: i16,
    pub col: i16,
}

impl Pos {
    pub const fn new(row: i16, col: i16) -> Pos {
        Pos { row, col }
    }

    /// The four edge neighbours in reading order: above, left, right, below.
    pub fn neighbours(self) -> [Pos; 4] {
        let Pos { row, col } = self;
        [
            Pos::new(row.saturating_sub(1), col),
            Pos::new(row, col.saturating_sub(1)),
            Pos::new(row, col.saturating_add(1)),
            Pos::new(row.saturating_add(1), col),
        ]
    }

    /// A coordinate within the grids' reach (closer to the origin than [`LIMIT`]).
    pub fn coordinate(n: i64) -> Option<i16> {
        i16::try_from(n).ok().filter(|n| n.abs() < LIMIT)
    }

    pub fn offset(self, rows: i16, cols: i16) -> Pos {
        Pos::new(self.row.saturating_add(rows), self.col.saturating_add(cols))
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The smallest rectangle holding every occupied cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub top: i16,
    pub left: i16,
    pub bottom: i16,
    pub right: i16,
}

impl Bounds {
    pub fn contains(&self, p: Pos) -> bool {
        p.row >= self.top && p.row <= self.bottom && p.col >= self.left && p.col <= self.right
    }
}

/// A rectangular piece: rows of cells, each an element code or nothing (a gap that leaves
/// the cell beneath as it is).
pub type Piece = Vec<Vec<Option<u16>>>;

/// The far edge grids keep away from, so that offsets never saturate.
pub const LIMIT: i16 = 10_000;

/// The largest rectangle `holes()` examines, so that two far-apart cells cannot make it
/// walk millions of empty cells.
const MAX_HOLE_AREA: i64 = 1_000_000;

/// The largest rectangle of candidates `placements` marks rather than sorts.
const MAX_MARKED_AREA: usize = 4096;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grid {
    /// Occupied cells in reading order.
    cells: Vec<(Pos, u16)>,
}

impl Grid {
    pub fn cells(&self) -> &[(Pos, u16)] {
        &self.cells
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn get(&self, p: Pos) -> Option<u16> {
        self.cells
            .binary_search_by(|(q, _)| q.cmp(&p))
            .ok()
            .map(|i| self.cells[i].1)
    }

    /// Writes one cell (covering what was there).
    pub fn set(&mut self, p: Pos, element: u16) {
        match self.cells.binary_search_by(|(q, _)| q.cmp(&p)) {
            Ok(i) => self.cells[i].1 = element,
            Err(i) => self.cells.insert(i, (p, element)),
        }
    }

    /// Places `piece` with its top-left cell at `at`, covering what lies beneath.
    pub fn place(&mut self, at: Pos, piece: &Piece) -> Result<(), String> {
        check_piece(piece)?;
        let far = at.offset(piece.len() as i16, piece[0].len() as i16);
        if [at.row, at.col, far.row, far.col]
            .iter()
            .any(|v| v.abs() >= LIMIT)
        {
            return Err(format!("position {at} is too far from the origin"));
        }
        for (r, line) in piece.iter().enumerate() {
            for (c, cell) in line.iter().enumerate() {
                if let Some(e) = cell {
                    self.set(at.offset(r as i16, c as i16), *e);
                }
            }
        }
        Ok(())
    }

    pub fn bounds(&self) -> Option<Bounds> {
        let first = self.cells.first()?.0;
        let mut b = Bounds {
            top: first.row,
            left: first.col,
            bottom: first.row,
            right: first.col,
        };
        for (p, _) in &self.cells {
            b.top = b.top.min(p.row);
            b.bottom = b.bottom.max(p.row);
            b.left = b.left.min(p.col);
            b.right = b.right.max(p.col);
        }
        Some(b)
    }

    /// Top-left positions where a `rows` × `cols` piece may go: on an empty grid only the
    /// origin; otherwise every position where the piece covers an occupied cell or shares
    /// an edge with one (touching at a corner only is not enough). Reading order.
    pub fn placements(&self, rows: i16, cols: i16) -> Vec<Pos> {
        if rows <= 0 || cols <= 0 {
            return Vec::new();
        }
        if self.is_empty() {
            return vec![Pos::new(0, 0)];
        }
        // Around each occupied cell: the rectangles that cover it, and those that have it
        // just beyond one of their four edges. Work grows with the cells, not the bounds
        // (but for a compact grid, marks on the rectangle of candidates, read in reading
        // order, save sorting them).
        let Some(b) = self.bounds() else {
            return Vec::new();
        };
        let (top, left) = (b.top as i32 - rows as i32, b.left as i32 - cols as i32);
        let height = (b.bottom as i32 + 1 - top + 1) as usize;
        let width = (b.right as i32 + 1 - left + 1) as usize;
        if height.saturating_mul(width) <= MAX_MARKED_AREA {
            let mut marked = vec![false; height * width];
            self.each_candidate(rows, cols, |p| {
                marked[(p.row as i32 - top) as usize * width + (p.col as i32 - left) as usize] =
                    true;
            });
            let mut out = Vec::new();
            for (i, &m) in marked.iter().enumerate() {
                if m {
                    out.push(Pos::new(
                        (top + (i / width) as i32) as i16,
                        (left + (i % width) as i32) as i16,
                    ));
                }
            }
            return out;
        }
        let mut out = Vec::new();
        self.each_candidate(rows, cols, |p| out.push(p));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every top-left position of a `rows` × `cols` rectangle that covers an occupied
    /// cell or has one just beyond an edge, once per such cell (so possibly repeated).
    fn each_candidate(&self, rows: i16, cols: i16, mut candidate: impl FnMut(Pos)) {
        for (p, _) in &self.cells {
            for top in (p.row - rows + 1)..=p.row {
                for left in (p.col - cols + 1)..=p.col {
                    candidate(Pos::new(top, left));
                }
                candidate(Pos::new(top, p.col + 1));
                candidate(Pos::new(top, p.col - cols));
            }
            for left in (p.col - cols + 1)..=p.col {
                candidate(Pos::new(p.row + 1, left));
                candidate(Pos::new(p.row - rows, left));
            }
        }
    }

    /// The edge-connected groups of the cells whose element passes `keep`, largest first
    /// (equal sizes in reading order of their first cell); each group in reading order.
    pub fn groups<E>(
        &self,
        mut keep: impl FnMut(u16) -> Result<bool, E>,
    ) -> Result<Vec<Vec<Pos>>, E> {
        let mut kept = BTreeSet::new();
        for (p, e) in &self.cells {
            if keep(*e)? {
                kept.insert(*p);
            }
        }
        let mut groups = Vec::new();
        while let Some(&start) = kept.iter().next() {
            kept.remove(&start);
            let mut group = vec![start];
            let mut i = 0;
            while i < group.len() {
                for n in group[i].neighbours() {
                    if kept.remove(&n) {
                        group.push(n);
                    }
                }
                i += 1;
            }
            group.sort();
            groups.push(group);
        }
        // Stable: groups were found in reading order of their first cell.
        groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
        Ok(groups)
    }

    /// Empty cells enclosed by the grid: inside its bounds and not connected to the
    /// outside of the bounds through empty cells. Reading order.
    pub fn holes(&self) -> Result<Vec<Pos>, String> {
        let Some(b) = self.bounds() else {
            return Ok(Vec::new());
        };
        let area = (b.bottom as i64 - b.top as i64 + 1) * (b.right as i64 - b.left as i64 + 1);
        if area > MAX_HOLE_AREA {
            return Err(format!(
                "holes() of a board spanning {area} cells: at most {MAX_HOLE_AREA}"
            ));
        }
        let mut outside = BTreeSet::new();
        let mut frontier: Vec<Pos> = Vec::new();
        for row in b.top..=b.bottom {
            for col in b.left..=b.right {
                let p = Pos::new(row, col);
                let on_edge = row == b.top || row == b.bottom || col == b.left || col == b.right;
                if on_edge && self.get(p).is_none() && outside.insert(p) {
                    frontier.push(p);
                }
            }
        }
        while let Some(p) = frontier.pop() {
            for n in p.neighbours() {
                if b.contains(n) && self.get(n).is_none() && outside.insert(n) {
                    frontier.push(n);
                }
            }
        }
        let mut holes = Vec::new();
        for row in b.top..=b.bottom {
            for col in b.left..=b.right {
                let p = Pos::new(row, col);
                if self.get(p).is_none() && !outside.contains(&p) {
                    holes.push(p);
                }
            }
        }
        Ok(holes)
    }
}

/// A piece must be a non-empty rectangle.
pub fn check_piece(piece: &Piece) -> Result<(), String> {
    let width = piece.first().map_or(0, Vec::len);
    if width == 0 {
        return Err("a piece needs at least one row and one column".into());
    }
    if piece.iter().any(|line| line.len() != width) {
        return Err("a piece's rows must all have the same length".into());
    }
    if piece.len() >= LIMIT as usize || width >= LIMIT as usize {
        return Err("a piece is too large".into());
    }
    Ok(())
}

/// The piece turned clockwise by `quarter_turns` quarter turns (negative: anticlockwise).
pub fn rotate<T: Clone>(piece: &[Vec<T>], quarter_turns: i64) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = piece.to_vec();
    for _ in 0..quarter_turns.rem_euclid(4) {
        let rows = out.len();
        let cols = out.first().map_or(0, Vec::len);
        out = (0..cols)
            .map(|c| (0..rows).rev().map(|r| out[r][c].clone()).collect())
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from text: one line per row starting at row 0, `.` empty, a digit an element.
    fn grid(text: &str) -> Grid {
        let mut g = Grid::default();
        for (r, line) in text.lines().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                if let Some(d) = ch.to_digit(10) {
                    g.set(Pos::new(r as i16, c as i16), d as u16);
                }
            }
        }
        g
    }

    fn positions(list: &[(i16, i16)]) -> Vec<Pos> {
        list.iter().map(|&(r, c)| Pos::new(r, c)).collect()
    }

    #[test]
    fn an_empty_grid_takes_its_first_piece_at_the_origin() {
        assert_eq!(Grid::default().placements(2, 2), positions(&[(0, 0)]));
    }

    #[test]
    fn placements_touch_by_an_edge_or_cover_never_only_a_corner() {
        let g = grid("1");
        // A 1×1 piece next to a single cell: the cell itself (covering) and its four edge
        // neighbours; the four diagonal cells touch only at a corner.
        assert_eq!(
            g.placements(1, 1),
            positions(&[(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)])
        );
        // A 2×2 piece around one cell: top-left from (-2,-1) to (1,0), minus the corners
        // (-2,-2)... enumerate by hand: it must cover (0,0) or have it on an edge.
        let p = g.placements(2, 2);
        assert!(
            !p.contains(&Pos::new(-2, -2))
                && !p.contains(&Pos::new(1, 1))
                && !p.contains(&Pos::new(-2, 1))
        );
        assert!(
            p.contains(&Pos::new(-2, -1))
                && p.contains(&Pos::new(-2, 0))
                && p.contains(&Pos::new(0, 1))
        );
        assert!(p.contains(&Pos::new(0, 0)) && p.contains(&Pos::new(-1, -1)));
        // Rows -2..=1, columns -2..=1 give 16 candidates; the 4 corner ones fail: 12.
        assert_eq!(p.len(), 12);
    }

    #[test]
    fn placements_on_a_spread_grid_are_the_same_set_in_reading_order() {
        // Far-apart cells take the path that sorts the candidates rather than marking them.
        let mut g = Grid::default();
        g.set(Pos::new(0, 0), 1);
        g.set(Pos::new(0, 5000), 1);
        let mut expected = grid("1").placements(1, 2);
        expected.extend(grid("1").placements(1, 2).iter().map(|p| p.offset(0, 5000)));
        expected.sort();
        assert_eq!(g.placements(1, 2), expected);
    }

    #[test]
    fn placing_covers_what_lies_beneath_and_gaps_keep_it() {
        let mut g = grid("11\n11");
        g.place(
            Pos::new(1, 1),
            &vec![vec![Some(2), None], vec![Some(3), Some(4)]],
        )
        .unwrap();
        // (1,1) covered by 2; the gap at (1,2) leaves that cell empty as it was.
        assert_eq!(g, grid("11\n12\n.34"));
    }

    #[test]
    fn groups_are_edge_connected_largest_first() {
        // 1s: {(0,0),(0,1),(1,1)} connected; (2,0) alone; (2,2) touches (1,1) only at a corner.
        let g = grid("11.\n.1.\n1.1");
        let groups = g.groups(|e| Ok::<_, ()>(e == 1)).unwrap();
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 1, 1]);
        assert_eq!(groups[1], positions(&[(2, 0)]));
        assert_eq!(groups[2], positions(&[(2, 2)]));
    }

    #[test]
    fn holes_are_enclosed_empty_cells() {
        // A ring of 8 cells around (1,1): one hole. The gap at (3,1) opens to the outside.
        let g = grid("111\n1.1\n111\n1.1");
        assert_eq!(g.holes().unwrap(), positions(&[(1, 1)]));
        // A notch open to the edge of the bounds is not a hole.
        assert_eq!(grid("1.1\n111").holes().unwrap(), Vec::<Pos>::new());
        // Two enclosed cells side by side are two holes.
        assert_eq!(
            grid("1111\n1..1\n1111").holes().unwrap(),
            positions(&[(1, 1), (1, 2)])
        );
    }

    #[test]
    fn a_half_turn_reverses_rows_and_columns() {
        let piece = vec![vec![1, 2], vec![3, 4]];
        assert_eq!(rotate(&piece, 2), vec![vec![4, 3], vec![2, 1]]);
        assert_eq!(rotate(&piece, 1), vec![vec![3, 1], vec![4, 2]]);
        assert_eq!(rotate(&piece, -1), rotate(&piece, 3));
        assert_eq!(rotate(&[vec![1, 2, 3]], 1), vec![vec![1], vec![2], vec![3]]);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn any_grid() -> impl Strategy<Value = Grid> {
            proptest::collection::vec((-6i16..6, -6i16..6, 0u16..3), 0..40).prop_map(|cells| {
                let mut g = Grid::default();
                for (r, c, e) in cells {
                    g.set(Pos::new(r, c), e);
                }
                g
            })
        }

        /// The rule `placements` implements, cell by cell: a `rows` × `cols` rectangle at
        /// `at` covers or edge-touches an occupied cell. Written as the rule reads (covers,
        /// or touches a side), not in clippy's shortest form.
        #[allow(clippy::nonminimal_bool)]
        fn touches(g: &Grid, at: Pos, rows: i16, cols: i16) -> bool {
            g.cells.iter().any(|(p, _)| {
                let inside_rows = p.row >= at.row && p.row < at.row + rows;
                let inside_cols = p.col >= at.col && p.col < at.col + cols;
                (inside_rows && inside_cols)
                    || (inside_rows && (p.col == at.col - 1 || p.col == at.col + cols))
                    || (inside_cols && (p.row == at.row - 1 || p.row == at.row + rows))
            })
        }

        proptest! {
            #[test]
            fn every_placement_covers_or_shares_an_edge(g in any_grid(), rows in 1i16..4, cols in 1i16..4) {
                let offered = g.placements(rows, cols);
                for at in &offered {
                    prop_assert!(g.is_empty() || touches(&g, *at, rows, cols));
                }
                // and every touching position near the grid is offered
                if let Some(b) = g.bounds() {
                    for top in (b.top - rows - 1)..=(b.bottom + 2) {
                        for left in (b.left - cols - 1)..=(b.right + 2) {
                            let at = Pos::new(top, left);
                            prop_assert_eq!(touches(&g, at, rows, cols), offered.contains(&at));
                        }
                    }
                }
            }

            #[test]
            fn groups_partition_the_kept_cells_into_connected_sets(g in any_grid()) {
                let groups = g.groups(|e| Ok::<_, ()>(e == 1)).unwrap();
                let mut all: Vec<Pos> = groups.iter().flatten().copied().collect();
                all.sort();
                let kept: Vec<Pos> = g.cells().iter().filter(|(_, e)| *e == 1).map(|(p, _)| *p).collect();
                prop_assert_eq!(all, kept);
                for w in groups.windows(2) {
                    prop_assert!(w[0].len() >= w[1].len());
                }
                // no cell of one group is a neighbour of a cell of another
                for (i, a) in groups.iter().enumerate() {
                    for b in groups.iter().skip(i + 1) {
                        for p in a {
                            prop_assert!(p.neighbours().iter().all(|n| !b.contains(n)));
                        }
                    }
                }
            }

            #[test]
            fn holes_are_empty_cells_inside_the_bounds(g in any_grid()) {
                for h in g.holes().unwrap() {
                    prop_assert!(g.get(h).is_none());
                    prop_assert!(g.bounds().unwrap().contains(h));
                }
            }
        }
    }
}
