//! Hex grids in offset coordinates (columns `x`, rows `y`, every other column shifted
//! half a hex down) or axial ones (`q`, `r`), square grids (`x` rightward, `y` upward;
//! 4 or 8 neighbours), and maps whose neighbours are listed outright. Pure geometry;
//! tables that declare a `geometry:` (or a `grid:`) use it for `neighbours`,
//! `components`, `lines`, `on_edge`, `distance`, `at`, `step` and `ray`.

/// Which columns are shifted half a hex down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Even columns (…, -2, 0, 2, …) sit half a hex lower than odd ones.
    EvenQ,
    /// Odd columns sit half a hex lower.
    OddQ,
    /// Axial coordinates of flat-topped hexes: `x` is q (the column), `y` is r, which
    /// runs down and to the lower left; a step to the upper right is (q+1, r-1).
    Axial,
    /// A square grid whose cells touch by an edge: 4 neighbours (`y` grows upward).
    Square4,
    /// A square grid whose cells touch by an edge or a corner: 8 neighbours.
    Square8,
}

/// The steps of a square grid, clockwise from the one above: up, up right, right, down
/// right, down, down left, left, up left.
const SQUARE8: [(i64, i64); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl Layout {
    pub fn named(name: &str) -> Option<Layout> {
        match name {
            "even-q" => Some(Layout::EvenQ),
            "odd-q" => Some(Layout::OddQ),
            "axial" => Some(Layout::Axial),
            _ => None,
        }
    }

    /// How many neighbours a cell has inside the grid: the directions of [`Self::neighbour`].
    pub fn directions(self) -> usize {
        match self {
            Layout::Square4 => 4,
            Layout::Square8 => 8,
            _ => 6,
        }
    }

    /// The cell next to `(x, y)` in direction `d` (0 above, then clockwise; less than
    /// [`Self::directions`]).
    pub fn neighbour(self, x: i64, y: i64, d: usize) -> (i64, i64) {
        let (dx, dy) = match self {
            Layout::Square4 => SQUARE8[2 * d],
            Layout::Square8 => SQUARE8[d],
            _ => return self.hex_neighbours(x, y)[d],
        };
        (x + dx, y + dy)
    }

    /// The neighbours of `(x, y)`, clockwise from the one above.
    pub fn neighbours(self, x: i64, y: i64) -> Vec<(i64, i64)> {
        (0..self.directions())
            .map(|d| self.neighbour(x, y, d))
            .collect()
    }

    /// The directions that run along each axis of lines, forward (each line is listed
    /// from its end that comes first): hexes down, lower right, upper right; squares
    /// right, up, then (with 8 neighbours) up right and down right.
    fn axes(self) -> &'static [usize] {
        match self {
            Layout::Square4 => &[1, 0],
            Layout::Square8 => &[2, 0, 1, 3],
            _ => &[3, 2, 1],
        }
    }

    fn shifted(self, x: i64) -> bool {
        let even = x.rem_euclid(2) == 0;
        match self {
            Layout::EvenQ => even,
            Layout::OddQ | Layout::Axial | Layout::Square4 | Layout::Square8 => !even,
        }
    }

    /// The six neighbours of a hex `(x, y)`, clockwise from the one above: above, upper
    /// right, lower right, below, lower left, upper left.
    fn hex_neighbours(self, x: i64, y: i64) -> [(i64, i64); 6] {
        if self == Layout::Axial {
            return [
                (x, y - 1),
                (x + 1, y - 1),
                (x + 1, y),
                (x, y + 1),
                (x - 1, y + 1),
                (x - 1, y),
            ];
        }
        // A shifted column's side neighbours are the cells at its row and the row below;
        // an unshifted one's, the row above and its row.
        let (upper, lower) = if self.shifted(x) {
            (y, y + 1)
        } else {
            (y - 1, y)
        };
        [
            (x, y - 1),
            (x + 1, upper),
            (x + 1, lower),
            (x, y + 1),
            (x - 1, lower),
            (x - 1, upper),
        ]
    }

    /// Cube coordinates of `(x, y)`: q, r, s with q + r + s = 0.
    fn cube(self, x: i64, y: i64) -> (i64, i64, i64) {
        if self == Layout::Axial {
            return (x, y, -x - y);
        }
        let q = x;
        // Rows of shifted columns sit half a hex lower: round the half hex toward them.
        let shift = if self.shifted(x) {
            (x - x.rem_euclid(2)) / 2
        } else {
            (x + x.rem_euclid(2)) / 2
        };
        let r = y - shift;
        (q, r, -q - r)
    }

    /// The number of steps from one cell to the other.
    pub fn distance(self, a: (i64, i64), b: (i64, i64)) -> i64 {
        let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        match self {
            Layout::Square4 => return dx + dy,
            Layout::Square8 => return dx.max(dy),
            _ => {}
        }
        let (aq, ar, as_) = self.cube(a.0, a.1);
        let (bq, br, bs) = self.cube(b.0, b.1);
        ((aq - bq).abs()).max((ar - br).abs()).max((as_ - bs).abs())
    }
}

/// The hexes of a table that declares a hex geometry: each row's coordinates and its
/// neighbours among the table's rows (clockwise from above), worked out once at load.
#[derive(Debug, Clone)]
pub struct HexTable {
    /// None for a map whose neighbours are listed (no coordinates: no lines, no edge).
    pub layout: Option<Layout>,
    pub coords: Vec<(i64, i64)>,
    pub neighbours: Vec<Vec<u16>>,
    /// The row at each place.
    at: std::collections::HashMap<(i64, i64), u16>,
}

impl HexTable {
    /// The geometry of rows at these coordinates; two rows at one place are refused.
    pub fn new(layout: Layout, coords: Vec<(i64, i64)>) -> Result<HexTable, String> {
        let mut at = std::collections::HashMap::new();
        for (r, c) in coords.iter().enumerate() {
            if let Some(other) = at.insert(*c, r as u16) {
                return Err(format!(
                    "rows {} and {} are both at ({}, {})",
                    other + 1,
                    r + 1,
                    c.0,
                    c.1
                ));
            }
        }
        let neighbours = coords
            .iter()
            .map(|&(x, y)| {
                layout
                    .neighbours(x, y)
                    .iter()
                    .filter_map(|n| at.get(n).copied())
                    .collect()
            })
            .collect();
        Ok(HexTable {
            layout: Some(layout),
            coords,
            neighbours,
            at,
        })
    }

    /// A map whose rows list their neighbours; each listing must be mutual.
    pub fn listed(neighbours: Vec<Vec<u16>>, ids: &[String]) -> Result<HexTable, String> {
        for (r, around) in neighbours.iter().enumerate() {
            for &n in around {
                if n as usize == r {
                    return Err(format!("row '{}' lists itself as its neighbour", ids[r]));
                }
                if !neighbours[n as usize].contains(&(r as u16)) {
                    return Err(format!(
                        "row '{}' lists '{}' as a neighbour, but '{}' does not list '{}'",
                        ids[r], ids[n as usize], ids[n as usize], ids[r]
                    ));
                }
            }
        }
        Ok(HexTable {
            layout: None,
            coords: Vec::new(),
            neighbours,
            at: Default::default(),
        })
    }

    /// The row next to `row` in direction `d` (0 above, then clockwise), if there is one.
    pub fn step(&self, row: u16, d: usize) -> Option<u16> {
        let (x, y) = self.coords[row as usize];
        let layout = self.layout?;
        if d >= layout.directions() {
            return None;
        }
        self.at.get(&layout.neighbour(x, y, d)).copied()
    }

    /// The rows from `row` (left out) in direction `d` up to the edge, nearest first.
    pub fn ray(&self, row: u16, d: usize) -> Vec<u16> {
        let mut out = Vec::new();
        let mut at = row;
        while let Some(next) = self.step(at, d) {
            out.push(next);
            at = next;
        }
        out
    }

    /// The row at `(x, y)`, if there is one.
    pub fn at(&self, x: i64, y: i64) -> Option<u16> {
        self.at.get(&(x, y)).copied()
    }

    /// How many neighbours a row has when none is missing (6 for hexes): fewer is the
    /// edge. None for a map that lists its neighbours.
    pub fn full_degree(&self) -> Option<usize> {
        self.layout.map(Layout::directions)
    }

    /// Every run of exactly `k` of `cells` along an axis ([`Self::lines`] cut into
    /// windows), in the order of the lines, then of where each run starts.
    pub fn windows(&self, cells: &[u16], k: usize) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        for line in self.lines_of_at_least(cells, k.max(1)) {
            out.extend(line.windows(k.max(1)).map(<[u16]>::to_vec));
        }
        out
    }

    /// The straight lines of `cells`: the longest runs of at least 2 of them, each the
    /// next one's neighbour in one direction, along each of the three axes (up–down,
    /// upper right–lower left, lower right–upper left). Each line starts at its end that
    /// comes first along the axis; lines are listed by axis, then by where their first
    /// cell stands in `cells`.
    pub fn lines(&self, cells: &[u16]) -> Vec<Vec<u16>> {
        self.lines_of_at_least(cells, 2)
    }

    /// The longest runs of at least `least` of `cells` along each axis.
    fn lines_of_at_least(&self, cells: &[u16], least: usize) -> Vec<Vec<u16>> {
        let Some(layout) = self.layout else {
            return Vec::new();
        };
        let inside: std::collections::HashSet<u16> = cells.iter().copied().collect();
        let mut out = Vec::new();
        let n = layout.directions();
        for &forward in layout.axes() {
            let backward = (forward + n / 2) % n;
            for &start in cells {
                // A line starts where the cell behind it is not one of the cells.
                if self
                    .step(start, backward)
                    .is_some_and(|b| inside.contains(&b))
                {
                    continue;
                }
                let mut line = vec![start];
                while let Some(next) = self
                    .step(*line.last().unwrap_or(&start), forward)
                    .filter(|n| inside.contains(n))
                {
                    line.push(next);
                }
                if line.len() >= least {
                    out.push(line);
                }
            }
        }
        out
    }

    /// The number of steps from `a` to `b`: through any hexes on a hex grid, through the
    /// table's rows on a listed map (None when no path joins them).
    pub fn distance(&self, a: u16, b: u16) -> Option<i64> {
        if let Some(layout) = self.layout {
            return Some(layout.distance(self.coords[a as usize], self.coords[b as usize]));
        }
        let mut steps = vec![None; self.neighbours.len()];
        steps[a as usize] = Some(0);
        let mut queue = std::collections::VecDeque::from([a]);
        while let Some(r) = queue.pop_front() {
            if r == b {
                break;
            }
            let d = steps[r as usize].unwrap_or(0);
            for &n in &self.neighbours[r as usize] {
                if steps[n as usize].is_none() {
                    steps[n as usize] = Some(d + 1);
                    queue.push_back(n);
                }
            }
        }
        steps[b as usize]
    }

    /// The groups of `cells` connected through neighbours, largest first; equal sizes in
    /// the order of their first cell in `cells`. Each group lists its cells in the order
    /// they are reached, from that first cell.
    pub fn components(&self, cells: &[u16]) -> Vec<Vec<u16>> {
        let mut left: Vec<bool> = vec![false; self.neighbours.len()];
        for &c in cells {
            left[c as usize] = true;
        }
        let mut groups: Vec<Vec<u16>> = Vec::new();
        for &start in cells {
            if !left[start as usize] {
                continue;
            }
            left[start as usize] = false;
            let mut group = vec![start];
            let mut next = 0;
            while next < group.len() {
                for &n in &self.neighbours[group[next] as usize] {
                    if left[n as usize] {
                        left[n as usize] = false;
                        group.push(n);
                    }
                }
                next += 1;
            }
            groups.push(group);
        }
        // Stable: equal sizes keep the order of their first cells.
        groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour rule of Gold West's board (shared/games/gold-west.md): (x, y±1); for
    /// even x also (x±1, y) and (x±1, y+1); for odd x also (x±1, y-1) and (x±1, y).
    fn by_the_rule(x: i64, y: i64) -> Vec<(i64, i64)> {
        let mut v = vec![(x, y - 1), (x, y + 1)];
        let side = if x % 2 == 0 { [y, y + 1] } else { [y - 1, y] };
        for dx in [-1, 1] {
            for yy in side {
                v.push((x + dx, yy));
            }
        }
        v.sort_unstable();
        v
    }

    #[test]
    fn even_q_neighbours_follow_the_rule_of_the_board() {
        for x in -7..8 {
            for y in -4..4 {
                let mut n = Layout::EvenQ.neighbours(x, y).to_vec();
                n.sort_unstable();
                assert_eq!(n, by_the_rule(x, y), "({x}, {y})");
            }
        }
    }

    #[test]
    fn neighbours_are_mutual_and_at_distance_one() {
        for layout in [Layout::EvenQ, Layout::OddQ, Layout::Axial] {
            for x in -5..6 {
                for y in -5..6 {
                    for n in layout.neighbours(x, y) {
                        assert!(
                            layout.neighbours(n.0, n.1).contains(&(x, y)),
                            "{layout:?} ({x},{y}) {n:?}"
                        );
                        assert_eq!(layout.distance((x, y), n), 1, "{layout:?} ({x},{y}) {n:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn lines_follow_the_three_axes() {
        // A column (0,0) (0,1) (0,2), and (1,1) (2,1) beside it. Even-q: (0,0)'s lower
        // right is (1,1), whose lower right (odd column) is (2,1): a line down-right.
        let coords = vec![(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)];
        let t = HexTable::new(Layout::EvenQ, coords).unwrap();
        let all: Vec<u16> = (0..5).collect();
        // Up–down: 0 1 2; lower right: 0 3 4; upper right: (0,2)'s upper right is (1,2)
        // (absent), (0,1)'s is (1,1): 1 3, and (1,1)'s (odd) upper right is (2,0): absent.
        assert_eq!(
            t.lines(&all),
            vec![vec![0, 1, 2], vec![0, 3, 4], vec![1, 3]]
        );
        // Without (0,1): the column breaks; no line is a single hex.
        assert_eq!(t.lines(&[0, 2, 3, 4]), vec![vec![0, 3, 4]]);
    }

    #[test]
    fn axial_neighbours_are_the_six_unit_steps_clockwise() {
        // Flat-topped, r down-left: above (0,-1), upper right (1,-1), lower right (1,0),
        // below (0,1), lower left (-1,1), upper left (-1,0).
        assert_eq!(
            Layout::Axial.neighbours(0, 0),
            [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
        );
        // Two steps right is (2,-1): (0,0) → (1,-1) → (2,-1), or → (1,0) → (2,-1).
        assert_eq!(Layout::Axial.distance((0, 0), (2, -1)), 2);
        assert_eq!(Layout::Axial.distance((0, 0), (2, 2)), 4);
        for n in Layout::Axial.neighbours(3, -2) {
            assert!(Layout::Axial.neighbours(n.0, n.1).contains(&(3, -2)));
        }
    }

    #[test]
    fn listed_maps_step_through_their_rows() {
        let ids: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        // a - b - c, and d alone.
        let t = HexTable::listed(vec![vec![1], vec![0, 2], vec![1], vec![]], &ids).unwrap();
        assert_eq!(t.distance(0, 2), Some(2));
        assert_eq!(t.distance(0, 3), None);
        assert_eq!(t.components(&[0, 1, 2, 3]), vec![vec![0, 1, 2], vec![3]]);
        assert_eq!(t.lines(&[0, 1, 2]), Vec::<Vec<u16>>::new());
        let one_way = HexTable::listed(vec![vec![1], vec![]], &ids[..2]).unwrap_err();
        assert_eq!(
            one_way,
            "row 'a' lists 'b' as a neighbour, but 'b' does not list 'a'"
        );
    }

    #[test]
    fn distance_counts_steps() {
        let l = Layout::EvenQ;
        assert_eq!(l.distance((0, 0), (0, 0)), 0);
        // Straight down a column: one step a row.
        assert_eq!(l.distance((0, 0), (0, 3)), 3);
        // Gold West's water row, (-1,0) to (2,0): (-1,0)→(0,0) is a side step (odd -1 has
        // (0,-1) and (0,0) as right neighbours), and so on: 3 steps.
        assert_eq!(l.distance((-1, 0), (2, 0)), 3);
        // Two columns right from an even column: (0,0) → (1,0) → (2,1)? (1,0) is odd: its
        // right neighbours are (2,-1) and (2,0); so (2,0) is 2 steps and (2,1) is 2 too
        // ((0,0) → (1,1) → (2,1)).
        assert_eq!(l.distance((0, 0), (2, 0)), 2);
        assert_eq!(l.distance((0, 0), (2, 1)), 2);
        assert_eq!(l.distance((0, 0), (2, 2)), 3);
    }
}
