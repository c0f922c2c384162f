//! What the engine benchmarks share: the decision checksum and the peak-memory probe, so that
//! `engine_bench` and `scale_bench` hash decisions the same way and their checksums compare.

use fairsim_sim::Recorder;
use fairsim_sim::recorder::{Decision, DecisionKind};

/// Hashes every decision (FNV-1a over its fields) and counts them.
pub struct HashRecorder {
    pub hash: u64,
    pub n: u64,
}

impl HashRecorder {
    pub fn new() -> HashRecorder {
        HashRecorder {
            hash: 0xcbf2_9ce4_8422_2325,
            n: 0,
        }
    }

    pub fn eat(&mut self, x: u64) {
        for b in x.to_le_bytes() {
            self.hash ^= b as u64;
            self.hash = self.hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Recorder for HashRecorder {
    fn decision(&mut self, d: &Decision) {
        self.n += 1;
        let kind = match d.kind {
            DecisionKind::Allocated(l) => l as u64,
            DecisionKind::Reserved => 10,
            DecisionKind::Unreserved => 11,
        };
        for x in [
            d.time.0,
            d.node as u64,
            d.app as u64,
            d.priority as u64,
            d.size.memory_mb as u64,
            d.size.vcores as u64,
            kind,
        ] {
            self.eat(x);
        }
    }
}

/// Peak resident memory of the process so far (VmHWM), in MiB.
pub fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
