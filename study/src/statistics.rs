//! The statistics of a run of games, shared by a run's summary and the balance report:
//! distributions of whole numbers, Wilson intervals, normal tests, and the summary of a
//! `stats:` entry. docs/results.md gives the JSON shapes.

use std::collections::BTreeMap;

use serde_json::{json, Value};

const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval of a proportion (`wins` may be fractional: shared wins split).
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = wins / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The complementary error function (Numerical Recipes' erfcc, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Two-sided p-value of a standard normal statistic.
pub fn p_two_sided(z: f64) -> f64 {
    if !z.is_finite() {
        return if z.is_nan() { 1.0 } else { 0.0 };
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// Two-proportion z-test (pooled): z and the two-sided p-value of p2 − p1.
pub fn two_proportions(x1: f64, n1: f64, x2: f64, n2: f64) -> (f64, f64) {
    let pooled = (x1 + x2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se <= 0.0 || !se.is_finite() {
        return (0.0, 1.0);
    }
    let z = (x2 / n2 - x1 / n1) / se;
    (z, p_two_sided(z))
}

/// Welch's z for a difference of means (large samples): z and the two-sided p-value.
pub fn means_test(a: &Dist, b: &Dist) -> (f64, f64) {
    let se = (a.sd * a.sd / a.n as f64 + b.sd * b.sd / b.n as f64).sqrt();
    if se <= 0.0 || !se.is_finite() {
        return if a.mean == b.mean {
            (0.0, 1.0)
        } else {
            (f64::INFINITY.copysign(b.mean - a.mean), 0.0)
        };
    }
    let z = (b.mean - a.mean) / se;
    (z, p_two_sided(z))
}

/// Rounded for the report, so that the JSON does not carry float noise.
pub fn rounded(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e6).round() / 1e6
    } else {
        x
    }
}

/// A number for a JSON report, rounded; JSON has no infinity, so +∞ is `"inf"`, and
/// −∞ (or a NaN) `"-inf"`.
pub fn json_number(x: f64) -> Value {
    if x.is_finite() {
        json!(rounded(x))
    } else if x > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

/// How many times each whole number occurred: a distribution kept in as many numbers as
/// it has distinct values, whatever the number of values added, so that a run's games are
/// summed up one at a time and forgotten. Everything a [`Dist`] reads (mean, sd,
/// quantiles, min, max) comes from it exactly as it would from the values themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    counts: BTreeMap<i64, u64>,
    n: u64,
    sum: i128,
}

impl Tally {
    /// The values of `values`.
    pub fn of(values: impl IntoIterator<Item = i64>) -> Tally {
        let mut t = Tally::default();
        for v in values {
            t.add(v);
        }
        t
    }

    /// One more value.
    pub fn add(&mut self, value: i64) {
        *self.counts.entry(value).or_default() += 1;
        self.n += 1;
        self.sum += i128::from(value);
    }

    /// How many values were added.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// Their sum, exact.
    pub fn sum(&self) -> i128 {
        self.sum
    }

    /// The smallest value (none without values).
    pub fn min(&self) -> Option<i64> {
        self.counts.keys().next().copied()
    }

    /// The largest value (none without values).
    pub fn max(&self) -> Option<i64> {
        self.counts.keys().next_back().copied()
    }

    /// The values in increasing order, each as many times as it was added.
    pub fn sorted(&self) -> impl Iterator<Item = i64> + '_ {
        self.counts
            .iter()
            .flat_map(|(&v, &count)| std::iter::repeat_n(v, count as usize))
    }

    /// Each distinct value, in increasing order, with how many times it was added.
    pub fn counts(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts.iter().map(|(&v, &count)| (v, count))
    }
}

/// A distribution of whole numbers: its summary, and its values (each distinct value with
/// its count, in increasing order).
pub struct Dist {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    /// Each distinct value, in increasing order, with how many times it occurs.
    counts: Vec<(i64, u64)>,
}

impl Dist {
    pub fn of(values: impl IntoIterator<Item = i64>) -> Dist {
        Dist::of_tally(&Tally::of(values))
    }

    /// The distribution of a tally's values. The mean and sd are summed over the values in
    /// increasing order, one by one, as they always were: the same floating-point numbers
    /// whatever order the values were added in.
    pub fn of_tally(tally: &Tally) -> Dist {
        let n = tally.n() as usize;
        let mean = if n == 0 {
            0.0
        } else {
            tally.sorted().map(|v| v as f64).sum::<f64>() / n as f64
        };
        let var = if n < 2 {
            0.0
        } else {
            tally
                .sorted()
                .map(|v| (v as f64 - mean).powi(2))
                .sum::<f64>()
                / (n - 1) as f64
        };
        Dist {
            n,
            mean,
            sd: var.sqrt(),
            counts: tally.counts().collect(),
        }
    }

    /// Each distinct value, in increasing order, with how many times it occurs.
    pub fn counts(&self) -> &[(i64, u64)] {
        &self.counts
    }

    /// The `k`-th smallest value (from 0; k < n).
    fn nth(&self, k: usize) -> i64 {
        let mut before = 0u64;
        for &(v, count) in &self.counts {
            before += count;
            if (k as u64) < before {
                return v;
            }
        }
        self.max()
    }

    /// The q-quantile (linear interpolation between order statistics); q is held to
    /// 0..=1.
    pub fn quantile(&self, q: f64) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let at = q.clamp(0.0, 1.0) * (self.n - 1) as f64;
        let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
        let f = at - lo as f64;
        self.nth(lo) as f64 * (1.0 - f) + self.nth(hi) as f64 * f
    }
    pub fn min(&self) -> i64 {
        self.counts.first().map_or(0, |&(v, _)| v)
    }
    pub fn max(&self) -> i64 {
        self.counts.last().map_or(0, |&(v, _)| v)
    }
    pub fn json(&self) -> Value {
        json!({
            "mean": json_number(self.mean), "sd": json_number(self.sd), "min": self.min(), "q1": json_number(self.quantile(0.25)),
            "median": json_number(self.quantile(0.5)), "q3": json_number(self.quantile(0.75)), "max": self.max(),
        })
    }
}

/// A `stats:` entry's values over a run's games, summed up as they come: how many, how
/// many were true, how many were not true/false, and the whole numbers among them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatValues {
    /// Values added.
    pub n: u64,
    /// Values that were `true`.
    pub trues: u64,
    /// Values that were neither `true` nor `false`.
    pub others: u64,
    /// The whole numbers among the values.
    pub numbers: Tally,
}

impl StatValues {
    /// The values of `values`.
    pub fn of<'v>(values: impl IntoIterator<Item = &'v Value>) -> StatValues {
        let mut s = StatValues::default();
        for v in values {
            s.add(v);
        }
        s
    }

    /// One more value.
    pub fn add(&mut self, value: &Value) {
        self.n += 1;
        match value.as_bool() {
            Some(yes) => self.trues += u64::from(yes),
            None => {
                self.others += 1;
                if let Some(number) = value.as_i64() {
                    self.numbers.add(number);
                }
            }
        }
    }

    /// Whether every value was true or false (so with no values too).
    pub fn all_bool(&self) -> bool {
        self.others == 0
    }
}

/// A `stats:` entry over a run's games: the share of games where it held (true/false)
/// with its Wilson interval, or its distribution (numbers).
pub fn stat_json(values: &StatValues) -> Value {
    let n = values.n as f64;
    if values.all_bool() {
        let yes = values.trues as f64;
        let (lo, hi) = wilson(yes, n);
        json!({ "kind": "bool", "true": yes as u64, "rate": json_number(if n > 0.0 { yes / n } else { 0.0 }), "ci_low": json_number(lo), "ci_high": json_number(hi) })
    } else {
        let mut d = Dist::of_tally(&values.numbers).json();
        d["kind"] = json!("int");
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: 40.4% – 59.6%; 0 of 10: 0 – 27.8%.
        let (lo, hi) = wilson(50.0, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn p_values_match_the_normal_distribution() {
        assert!((p_two_sided(1.959964) - 0.05).abs() < 1e-6);
        assert!((p_two_sided(0.0) - 1.0).abs() < 1e-6);
        assert!((p_two_sided(-2.575829) - 0.01).abs() < 1e-6);
        // 60/100 vs 40/100: z = 2.828 (pooled p = 0.5).
        let (z, p) = two_proportions(40.0, 100.0, 60.0, 100.0);
        assert!(
            (z - 2.828427).abs() < 1e-5 && (p - 0.004678).abs() < 1e-5,
            "{z} {p}"
        );
    }

    #[test]
    fn quantiles_interpolate() {
        let d = Dist::of([1, 2, 3, 4]);
        assert_eq!(d.quantile(0.5), 2.5);
        assert_eq!(d.quantile(0.0), 1.0);
        assert_eq!(d.quantile(1.0), 4.0);
    }

    /// A distribution worked out by hand: values, mean, sample sd, q1, median, q3.
    type Expected = (&'static [i64], f64, f64, f64, f64, f64);

    const DISTRIBUTIONS: &[Expected] = &[
        // Mean 40/8 = 5; squares of the deviations 9+1+1+1+0+0+4+16 = 32, sd √(32/7);
        // q1 at 0.25·7 = 1.75 between 4 and 4, median at 3.5 between 4 and 5, q3 at 5.25
        // between 5 and 7.
        (&[2, 4, 4, 4, 5, 5, 7, 9], 5.0, 2.138_090, 4.0, 4.5, 5.5),
        // Unsorted input; mean 2, sd 1; q1 at 0.5 between 1 and 2.
        (&[3, 1, 2], 2.0, 1.0, 1.5, 2.0, 2.5),
        // One value: no spread.
        (&[-7], -7.0, 0.0, -7.0, -7.0, -7.0),
        // No value: zeros, not a panic.
        (&[], 0.0, 0.0, 0.0, 0.0, 0.0),
    ];

    #[test]
    fn distributions_match_hand_computed_values() {
        for &(values, mean, sd, q1, median, q3) in DISTRIBUTIONS {
            let d = Dist::of(values.iter().copied());
            let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
            assert_eq!(d.n, values.len(), "{values:?}");
            assert!(close(d.mean, mean), "{values:?}: mean {}", d.mean);
            assert!(close(d.sd, sd), "{values:?}: sd {}", d.sd);
            assert!(close(d.quantile(0.25), q1), "{values:?}: q1");
            assert!(close(d.quantile(0.5), median), "{values:?}: median");
            assert!(close(d.quantile(0.75), q3), "{values:?}: q3");
            // A quantile asked outside 0..=1 is the nearest end.
            assert_eq!(d.quantile(-1.0), d.quantile(0.0));
            assert_eq!(d.quantile(2.0), d.quantile(1.0));
        }
    }

    #[test]
    fn means_tests_match_hand_computed_values() {
        // (a, b, z, p): means 2 and 3, sds 1 and 1, se √(1/3 + 1/3) = 0.816497, z = 1.224745,
        // p = 2·(1 − Φ(1.224745)) = 0.220671. Equal constants: no difference; unequal
        // constants: an infinite z towards the larger mean.
        let cases: &[(&[i64], &[i64], f64, f64)] = &[
            (&[1, 2, 3], &[2, 3, 4], 1.224_745, 0.220_671),
            (&[2, 3, 4], &[1, 2, 3], -1.224_745, 0.220_671),
            (&[5, 5], &[5, 5], 0.0, 1.0),
            (&[5, 5], &[6, 6], f64::INFINITY, 0.0),
            (&[6, 6], &[5, 5], f64::NEG_INFINITY, 0.0),
        ];
        for &(a, b, z, p) in cases {
            let (got_z, got_p) =
                means_test(&Dist::of(a.iter().copied()), &Dist::of(b.iter().copied()));
            let close = |x: f64, y: f64| x == y || (x - y).abs() < 1e-5;
            assert!(
                close(got_z, z) && close(got_p, p),
                "{a:?} {b:?}: z {got_z}, p {got_p}"
            );
        }
    }

    #[test]
    fn true_false_statistics_give_their_rate_and_interval() {
        // 3 of 4: rate 0.75; Wilson with z² = 3.841459: centre (0.75 + 0.480182)/1.960365 =
        // 0.627527, half 1.959964·√(0.046875 + 0.060023)/1.960365 = 0.326885: 0.300642 to
        // 0.954413.
        let values = [json!(true), json!(false), json!(true), json!(true)];
        let s = stat_json(&StatValues::of(&values));
        assert_eq!(s["kind"], "bool");
        assert_eq!(s["true"], 3);
        assert_eq!(s["rate"], 0.75);
        assert_eq!(s["ci_low"], 0.300642);
        assert_eq!(s["ci_high"], 0.954413);
        let numbers = stat_json(&StatValues::of(&[json!(3), json!(1), json!(2)]));
        assert_eq!(numbers["kind"], "int");
        assert_eq!(
            (
                numbers["min"].clone(),
                numbers["median"].clone(),
                numbers["max"].clone()
            ),
            (json!(1), json!(2.0), json!(3))
        );
    }

    #[test]
    fn report_numbers_are_rounded_and_infinities_named() {
        assert_eq!(json_number(0.123_456_789), json!(0.123457));
        assert_eq!(json_number(f64::INFINITY), json!("inf"));
        assert_eq!(json_number(f64::NEG_INFINITY), json!("-inf"));
    }
}
