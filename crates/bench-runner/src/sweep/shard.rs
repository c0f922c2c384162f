//! Shards: `--shard K/N` keeps the runs whose index is `K` modulo `N`, for one task of a batch array job.

use std::fmt;
use std::str::FromStr;

/// Shard `k` of `n`: the runs with `run_index % n == k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shard {
    /// This shard's number, `0..n`.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl Shard {
    /// Whether run `run_index` belongs to this shard.
    pub fn contains(&self, run_index: u64) -> bool {
        run_index % self.n == self.k
    }

    /// The name of this shard's runs file: `runs.shard-K-of-N.csv`.
    pub fn runs_file(&self) -> String {
        format!("runs.shard-{}-of-{}.csv", self.k, self.n)
    }

    /// The name that tells this shard's staging directory apart (`shard-K-of-N`).
    pub fn tag(&self) -> String {
        format!("shard-{}-of-{}", self.k, self.n)
    }

    /// The name of this shard's journal: `journal.shard-K-of-N.jsonl`.
    pub fn journal_file(&self) -> String {
        format!("journal.shard-{}-of-{}.jsonl", self.k, self.n)
    }

    /// Recognises a shard runs file name written by [`Shard::runs_file`].
    pub fn from_runs_file(name: &str) -> Option<Shard> {
        let middle = name.strip_prefix("runs.shard-")?.strip_suffix(".csv")?;
        let (k, n) = middle.split_once("-of-")?;
        Shard::new(k.parse().ok()?, n.parse().ok()?).ok()
    }

    /// Shard `k` of `n`; requires `k < n`.
    pub fn new(k: u64, n: u64) -> Result<Shard, String> {
        if n == 0 || k >= n {
            return Err(format!("shard {k}/{n}: need 0 <= K < N"));
        }
        Ok(Shard { k, n })
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard `{s}`: expected K/N, e.g. 0/4"))?;
        let parse = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("shard `{s}`: expected K/N, e.g. 0/4"))
        };
        Shard::new(parse(k)?, parse(n)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_name_their_files() {
        let s: Shard = "2/5".parse().unwrap();
        assert_eq!(s, Shard { k: 2, n: 5 });
        assert!(s.contains(7) && !s.contains(8));
        assert_eq!(Shard::from_runs_file(&s.runs_file()), Some(s));
        for bad in ["5/5", "1", "a/2", "0/0", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
