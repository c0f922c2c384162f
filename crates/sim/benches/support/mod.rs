//! What the engine benchmarks share: the decision checksum and the peak-memory probe, so that
//! `engine_bench` and `scale_bench` hash decisions the same way and their checksums compare.

use fairsim_sim::Recorder;
use fairsim_sim::recorder::{Decision, DecisionKind};

/// Hashes every decision (its fields a word at a time) and counts them.
///
/// The checksum is the benchmarks' own: `fairsim run` writes decisions to files and hashes
/// none, so its cost is no part of the engine's and should stay small next to it. Each word
/// costs one rotate, one xor and one multiply by an odd constant: for a given word the step
/// is a bijection of the hash (no history is ever lost), the multiply carries every bit of
/// the word upwards and the rotate brings the high bits back down for the next word. (It
/// was FNV-1a a byte at a time, eight dependent multiplies per word: 11.5% of a 10,000-leaf
/// run's CPU, which makes 12M decisions.) Not a cryptographic hash: it tells runs that
/// decided differently apart, which is all a checksum here is asked.
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
        self.hash = (self.hash.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
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
