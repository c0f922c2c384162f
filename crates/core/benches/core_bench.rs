//! Prints computeShares time for 10, 1,000 and 100,000 schedulables (each era, and the exact
//! solver) and the comparators' key and compare throughput. Run: `cargo bench -p fairsim-core`.

use fairsim_core::share::{ShareItem, ShareKind, exact_shares, hadoop_shares};
use fairsim_core::{Comparator, OrderKey, Policy, Resource, Schedulable, Semantics};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A small deterministic generator: benchmarks need no statistical quality.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

fn items(n: usize) -> Vec<ShareItem> {
    let mut g = Lcg(n as u64);
    (0..n)
        .map(|_| {
            let min = if g.next(4) == 0 {
                g.next(2_000) as i64
            } else {
                0
            };
            let max = if g.next(3) == 0 {
                min + 1 + g.next(100_000) as i64
            } else {
                i32::MAX as i64
            };
            ShareItem {
                weight: (1 + g.next(400)) as f32 / 100.0,
                min,
                max,
                active: g.next(10) != 0,
            }
        })
        .collect()
}

/// Median wall time of `f` over enough repetitions to fill ~0.3 s.
fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let mut out = f();
    let once = start.elapsed().max(Duration::from_nanos(1));
    let reps =
        ((Duration::from_millis(300).as_nanos() / once.as_nanos()) as usize).clamp(3, 10_000);
    let mut samples = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        out = black_box(f());
        samples.push(t.elapsed());
    }
    samples.sort();
    (samples[samples.len() / 2], out)
}

fn main() {
    println!("computeShares (median per call, instantaneous, memory)");
    for n in [10usize, 1_000, 100_000] {
        let list = items(n);
        let total = 10_000 * n as i64;
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let (t, shares) = time(|| hadoop_shares(era, ShareKind::Instantaneous, &list, total));
            let checksum: i64 = shares.iter().sum();
            println!(
                "  {era:<11} n={n:>7}  {:>12.3?}  ({:.1} ns/schedulable, checksum {checksum})",
                t,
                t.as_nanos() as f64 / n as f64
            );
            assert!(
                checksum >= total.min(list.iter().filter(|i| i.active).map(|i| i.max).sum())
                    || n == 0
            );
        }
        let (t, shares) = time(|| exact_shares(ShareKind::Instantaneous, &list, total as f64));
        let checksum: f64 = shares.iter().sum();
        println!(
            "  {:<11} n={n:>7}  {:>12.3?}  ({:.1} ns/schedulable, checksum {checksum:.0})",
            "exact",
            t,
            t.as_nanos() as f64 / n as f64
        );
    }

    let n = 100_000;
    let mut g = Lcg(7);
    let apps: Vec<Schedulable> = (0..n)
        .map(|i| Schedulable {
            name: format!("application_1700000000000_{i:04}"),
            weight: (1 + g.next(8)) as f32,
            start_time_ms: g.next(1_000_000) as i64,
            min_share: Resource::new(
                if g.next(5) == 0 {
                    g.next(8192) as i64
                } else {
                    0
                },
                0,
            ),
            max_share: Resource::UNBOUNDED,
            demand: Resource::new(g.next(65_536) as i64, g.next(64) as i64),
            usage: Resource::new(g.next(32_768) as i64, g.next(32) as i64),
            active: true,
        })
        .collect();
    println!("comparators over {n} schedulables");
    for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
        for policy in [Policy::Fair, Policy::Drf] {
            let c = Comparator::new(era, policy, Resource::new(1 << 24, 1 << 14));
            let (t, keys) = time(|| apps.iter().map(|s| c.key(s)).collect::<Vec<OrderKey>>());
            let (tc, less) = time(|| {
                apps.windows(2)
                    .filter(|w| c.compare(&w[0], &w[1]).is_lt())
                    .count()
            });
            println!(
                "  {era:<11} {policy:<4}  key {:>7.1} M/s   compare {:>7.1} M/s   (keys {}, {} less)",
                n as f64 / t.as_secs_f64() / 1e6,
                (n - 1) as f64 / tc.as_secs_f64() / 1e6,
                keys.len(),
                less
            );
        }
    }
}
