//! Prizes by place, as the `award:` statement gives them: entrants ranked by keys (higher
//! first), a prize per place, and a rule for ties. Pure arithmetic, unit-tested here.

/// What tied entrants get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// Tied on the first key, they pool the prizes of the places they span and split the
    /// pool evenly, rounded down (the usual majority rule).
    Share,
    /// Tied on the first key, each takes the prize of their place; the places after them
    /// are skipped.
    Each,
    /// The next keys break a tie on the first, in order; entrants tied on every key share.
    NextKey,
}

impl Ties {
    pub fn named(name: &str) -> Option<Ties> {
        match name {
            "share" => Some(Ties::Share),
            "each" => Some(Ties::Each),
            "next-key" => Some(Ties::NextKey),
            _ => None,
        }
    }
}

/// The prize of each entrant (in the order given), from their keys; an error if a pool of
/// prizes adds up past the whole numbers a state holds.
pub fn prizes(keys: &[Vec<i64>], prizes: &[i64], ties: Ties) -> Result<Vec<i64>, String> {
    // How two entrants compare: on the first key, or on all of them for next-key.
    let significant = |k: &Vec<i64>| -> Vec<i64> {
        match ties {
            Ties::NextKey => k.clone(),
            Ties::Share | Ties::Each => k.first().copied().into_iter().collect(),
        }
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    // Stable: entrants equal on every compared key keep the order they were given in.
    order.sort_by(|a, b| significant(&keys[*b]).cmp(&significant(&keys[*a])));
    let prize = |place: usize| prizes.get(place).copied().unwrap_or(0);
    let mut out = vec![0; keys.len()];
    let mut place = 0;
    while place < order.len() {
        let tied = order[place..]
            .iter()
            .take_while(|&&e| significant(&keys[e]) == significant(&keys[order[place]]))
            .count();
        let each = match ties {
            Ties::Each => prize(place),
            Ties::Share | Ties::NextKey => {
                let pool = (place..place + tied)
                    .map(prize)
                    .try_fold(0i64, |a, p| a.checked_add(p))
                    .ok_or(
                        "the prizes of tied places add up past the whole numbers a state holds",
                    )?;
                pool.div_euclid(tied as i64)
            }
        };
        for &e in &order[place..place + tied] {
            out[e] = each;
        }
        place += tied;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(keys: &[i64]) -> Vec<Vec<i64>> {
        keys.iter().map(|k| vec![*k]).collect()
    }

    #[test]
    fn a_clear_order_takes_the_prizes_in_turn() {
        // 4 > 3 > 1: first 5, second 3, third 1.
        assert_eq!(
            prizes(&k(&[3, 4, 1]), &[5, 3, 1], Ties::Share).unwrap(),
            vec![3, 5, 1]
        );
        // More entrants than prizes: the last gets nothing.
        assert_eq!(
            prizes(&k(&[1, 2, 3, 4]), &[5, 3], Ties::Share).unwrap(),
            vec![0, 0, 3, 5]
        );
    }

    #[test]
    fn shared_places_pool_their_prizes() {
        // Two tied first: (5 + 3) / 2 = 4 each; the third takes the third prize, 1.
        assert_eq!(
            prizes(&k(&[4, 4, 2]), &[5, 3, 1], Ties::Share).unwrap(),
            vec![4, 4, 1]
        );
        // Three tied first: (5 + 3 + 1) / 3 = 3 each.
        assert_eq!(
            prizes(&k(&[2, 2, 2]), &[5, 3, 1], Ties::Share).unwrap(),
            vec![3, 3, 3]
        );
        // Two tied second: (3 + 0) / 2 = 1 each, rounded down.
        assert_eq!(
            prizes(&k(&[9, 1, 1]), &[5, 3], Ties::Share).unwrap(),
            vec![5, 1, 1]
        );
    }

    #[test]
    fn each_tied_entrant_takes_the_place_and_the_next_is_skipped() {
        // Two tied first take 5 each; the next entrant is third: 1.
        assert_eq!(
            prizes(&k(&[4, 4, 2]), &[5, 3, 1], Ties::Each).unwrap(),
            vec![5, 5, 1]
        );
    }

    #[test]
    fn the_next_key_breaks_ties() {
        // Tied on 4, the second key puts the second entrant first; the third is third.
        let keys = vec![vec![4, 1], vec![4, 2], vec![2, 9]];
        assert_eq!(
            prizes(&keys, &[5, 3, 1], Ties::NextKey).unwrap(),
            vec![3, 5, 1]
        );
        // Tied on every key: they share, (5 + 3) / 2 = 4.
        let keys = vec![vec![4, 1], vec![4, 1], vec![2, 9]];
        assert_eq!(
            prizes(&keys, &[5, 3, 1], Ties::NextKey).unwrap(),
            vec![4, 4, 1]
        );
    }

    #[test]
    fn nobody_no_prize() {
        assert_eq!(
            prizes(&[], &[5, 3], Ties::Share).unwrap(),
            Vec::<i64>::new()
        );
    }
}
