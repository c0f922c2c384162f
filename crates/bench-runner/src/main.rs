//! The `fairsim` command line: `fairsim run SCENARIO [--seed N] [--out DIR]` and
//! `fairsim validate SCENARIO`.

use std::path::PathBuf;
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: fairsim run SCENARIO [--seed N] [--out DIR]\n       fairsim validate SCENARIO"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => return usage(),
    };
    let Some(path) = rest.first() else {
        return usage();
    };
    let scenario = match fairsim_sim::load_scenario(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for w in &scenario.warnings {
        eprintln!("warning: {w}");
    }
    match cmd {
        "validate" => {
            println!("{path}: ok");
            ExitCode::SUCCESS
        }
        "run" => {
            let mut seed = 1u64;
            let mut out = PathBuf::from("results").join(&scenario.name);
            let mut it = rest[1..].iter();
            while let Some(a) = it.next() {
                match (a.as_str(), it.next()) {
                    ("--seed", Some(v)) => match v.parse() {
                        Ok(s) => seed = s,
                        Err(_) => return usage(),
                    },
                    ("--out", Some(v)) => out = PathBuf::from(v),
                    _ => return usage(),
                }
            }
            match fairsim_sim::run_to_dir(&scenario, seed, &out) {
                Ok(summary) => {
                    for (k, v) in &summary.metrics {
                        println!("{k} = {}", fairsim_sim::recorder::fmt_f64(*v));
                    }
                    println!("wrote {}", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        _ => usage(),
    }
}
