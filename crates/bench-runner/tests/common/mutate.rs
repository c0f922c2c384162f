//! Random edits of input files and a bounded run of the `fairsim` binary, shared by the
//! mutation and robustness tests.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// SplitMix64: a small deterministic generator, enough to pick edits.
pub struct Draws(pub u64);

impl Draws {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes an edit writes: structure of TOML and XML, digits, signs and extremes.
const INTERESTING: &[&str] = &[
    "0",
    "-1",
    "1e39",
    "nan",
    "inf",
    "-",
    ".",
    "\"",
    "=",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "/",
    "\n",
    "\r\n",
    "\u{feff}",
    "9999999999999999999",
    "2147483648",
    "-9223372036854775808",
    "0.0",
    "1.5",
    "\"\"",
    "</queue>",
    "<queue name=\"x\">",
    "mb",
    "vcores",
    "%",
    ",",
    "\0",
];

/// One random edit of `text`, described for the failure message.
pub fn mutate(text: &[u8], d: &mut Draws) -> (Vec<u8>, String) {
    let mut out = text.to_vec();
    let at = d.below(out.len() + 1);
    let what = match d.below(7) {
        0 => {
            out.truncate(at);
            format!("truncated at byte {at}")
        }
        1 if at < out.len() => {
            out[at] = d.next() as u8;
            format!("byte {at} set to {:#04x}", out[at])
        }
        2 => {
            let s = INTERESTING[d.below(INTERESTING.len())];
            out.splice(at..at, s.bytes());
            format!("{s:?} inserted at byte {at}")
        }
        3 if at < out.len() => {
            let end = (at + 1 + d.below(8)).min(out.len());
            out.drain(at..end);
            format!("bytes {at}..{end} deleted")
        }
        4 | 5 => {
            let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
            let i = d.below(lines.len());
            let mut v = Vec::new();
            for (j, l) in lines.iter().enumerate() {
                if j != i {
                    v.extend_from_slice(l);
                } else if d.below(2) == 0 {
                    // Repeated: a key or element given twice.
                    v.extend_from_slice(l);
                    v.extend_from_slice(l);
                }
            }
            out = v;
            format!("line {} deleted or repeated", i + 1)
        }
        _ => {
            // A number replaced by an interesting one.
            let digits: Vec<usize> = (0..out.len())
                .filter(|&i| out[i].is_ascii_digit())
                .collect();
            if digits.is_empty() {
                return (out, "unchanged".into());
            }
            let start = digits[d.below(digits.len())];
            let end = (start..out.len())
                .find(|&i| !(out[i].is_ascii_digit() || out[i] == b'.'))
                .unwrap_or(out.len());
            let s = INTERESTING[d.below(INTERESTING.len())];
            out.splice(start..end, s.bytes());
            format!("number at byte {start} replaced by {s:?}")
        }
    };
    (out, what)
}

/// Runs `fairsim args` in `dir`: its exit code (0 or 2), or what went wrong.
pub fn run_bounded(dir: &Path, args: &[&str], limit: Duration) -> Result<i32, String> {
    run_bounded_in(dir, args, limit, None).map(|(code, _)| code)
}

/// How many times its CPU bound a case may take in wall-clock time.
const WALL_FACTOR: u32 = 10;

/// The CPU time (user and system) process `pid` has used so far, from `/proc/PID/stat`
/// (fields 14 and 15, in the kernel's fixed 100 ticks per second); `None` where that file
/// cannot be read.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: count fields after its end.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ').skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// As [`run_bounded`], with the process's address space capped at `memory_bytes` (by
/// util-linux's `prlimit`), so a blow-up ends in an allocation failure, reported as a crash,
/// rather than in the kernel's OOM killer taking the machine's other work with it. Also gives
/// what the command wrote on stderr.
pub fn run_bounded_in(
    dir: &Path,
    args: &[&str],
    limit: Duration,
    memory_bytes: Option<u64>,
) -> Result<(i32, String), String> {
    let fairsim = env!("CARGO_BIN_EXE_fairsim");
    let mut command = match memory_bytes {
        Some(bytes) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--as={bytes}")).arg("--").arg(fairsim);
            c
        }
        None => Command::new(fairsim),
    };
    let mut child = command
        .args(args)
        .current_dir(dir)
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    // Stderr is read on its own thread so a long message cannot block the child.
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    // The bound is on the case's own CPU time, so that other work on the machine cannot
    // fail a case; a case that waits without computing is caught by the wall-clock bound.
    let start = Instant::now();
    let wall_limit = limit * WALL_FACTOR;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        let over = if cpu_time(child.id()).is_some_and(|cpu| cpu > limit) {
            Some(format!("used more than {limit:?} of CPU"))
        } else if start.elapsed() > wall_limit {
            Some(format!("still running after {wall_limit:?}"))
        } else {
            None
        };
        if let Some(why) = over {
            let _ = child.kill();
            let _ = child.wait();
            return Err(why);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().unwrap_or_default();
    match status.code() {
        Some(code @ (0 | 2)) if !err.contains("panicked") => {
            // Nothing half-written: a refused run leaves no output directory.
            if code == 2 && dir.join("out").exists() {
                return Err(format!("exit 2 left `out` behind: {}", err.trim()));
            }
            Ok((code, err))
        }
        code => Err(format!("exit {code:?}: {}", err.trim())),
    }
}
