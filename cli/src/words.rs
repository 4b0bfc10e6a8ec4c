//! Small pieces of the English the commands print.

/// A count and its noun, singular for one: "1 step", "3 steps", "0 games".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1u64, "step"), "1 step");
        assert_eq!(counted(0u64, "step"), "0 steps");
        assert_eq!(counted(12u32, "game"), "12 games");
    }
}
