//! `fairsim merge`: joins shard outputs into exactly the files an unsharded sweep writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::output::{Manifest, RunsTable, detail_dir};
use super::{Shard, SweepError, io_err, write_final};

/// Joins the shards found in `dirs` into `out`: `runs.csv`, `summary.csv`, `sweep.json`, run detail and charts.
/// Returns the number of runs. Every shard must be present once and all must come from the same sweep.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<usize, SweepError> {
    merge_table(dirs, out).map(|t| t.rows.len())
}

/// Like [`merge`], returning the joined runs.
pub fn merge_table(dirs: &[PathBuf], out: &Path) -> Result<RunsTable, SweepError> {
    let mut manifest: Option<Manifest> = None;
    let mut shards: BTreeMap<Shard, PathBuf> = BTreeMap::new();
    for dir in dirs {
        let m = Manifest::read(dir)?;
        match &manifest {
            None => manifest = Some(m),
            Some(first) if first.fingerprint != m.fingerprint || first.n_runs != m.n_runs => {
                return Err(SweepError::Shards(format!(
                    "{} is of a different sweep than {}",
                    dir.join("sweep.json").display(),
                    dirs[0].join("sweep.json").display()
                )));
            }
            Some(_) => {}
        }
        let entries = std::fs::read_dir(dir).map_err(|source| SweepError::Read {
            path: dir.clone(),
            source,
        })?;
        for entry in entries {
            let entry = entry.map_err(|source| SweepError::Read {
                path: dir.clone(),
                source,
            })?;
            let Some(shard) = entry.file_name().to_str().and_then(Shard::from_runs_file) else {
                continue;
            };
            let path = entry.path();
            if let Some(other) = shards.get(&shard)
                && !same_file(other, &path)
            {
                return Err(SweepError::Shards(format!(
                    "shard {shard} found twice: {} and {}",
                    other.display(),
                    path.display()
                )));
            }
            shards.insert(shard, path);
        }
    }
    let manifest = manifest.expect("clap requires at least one directory");
    let searched = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let files = |shards: &BTreeMap<Shard, PathBuf>| {
        shards
            .values()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let n = shards.keys().next().map(|s| s.n).ok_or_else(|| {
        SweepError::Shards(format!(
            "no shard files (runs.shard-K-of-N.csv) in {searched}"
        ))
    })?;
    let missing: Vec<String> = (0..n)
        .filter(|&k| !shards.contains_key(&Shard { k, n }))
        .map(|k| k.to_string())
        .collect();
    if shards.keys().any(|s| s.n != n) {
        return Err(SweepError::Shards(format!(
            "shards split the sweep in different numbers of parts: {}",
            files(&shards)
        )));
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing
            .iter()
            .map(|k| format!("runs.shard-{k}-of-{n}.csv"))
            .collect();
        return Err(SweepError::Shards(format!(
            "missing shards {} of {n} ({}) in {searched}",
            missing.join(", "),
            names.join(", ")
        )));
    }

    let mut metrics: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    for path in shards.values() {
        let t = RunsTable::read(path, Some(manifest.axes.len()))?;
        if t.axes != manifest.axes {
            return Err(SweepError::Shards(format!(
                "{}:1: axes differ from sweep.json",
                path.display()
            )));
        }
        if !t.rows.is_empty() {
            match &metrics {
                None => metrics = Some(t.metrics.clone()),
                Some(m) if *m != t.metrics => {
                    return Err(SweepError::Shards(format!(
                        "{}:1: metrics differ between shards",
                        path.display()
                    )));
                }
                Some(_) => {}
            }
        }
        rows.extend(t.rows);
    }
    rows.sort_by_key(|r| r.run_index);
    let complete = rows.len() as u64 == manifest.n_runs
        && rows
            .iter()
            .enumerate()
            .all(|(i, r)| r.run_index == i as u64);
    if !complete {
        return Err(SweepError::Shards(format!(
            "{} hold {} runs, not each of the sweep's {} runs once",
            files(&shards),
            rows.len(),
            manifest.n_runs
        )));
    }
    let table = RunsTable {
        axes: manifest.axes.clone(),
        metrics: metrics.unwrap_or_default(),
        rows,
    };

    std::fs::create_dir_all(out).map_err(|source| SweepError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let detail_out = detail_dir(out, manifest.charts.run);
    for dir in dirs {
        let detail_in = detail_dir(dir, manifest.charts.run);
        if detail_in.is_dir() && !same_file(&detail_in, &detail_out) {
            copy_dir(&detail_in, &detail_out)?;
        }
    }
    manifest.check_metrics(&dirs[0], &table)?;
    manifest.write(out)?;
    write_final(out, &table, &manifest.charts)?;
    Ok(table)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), SweepError> {
    std::fs::create_dir_all(to).map_err(io_err(to))?;
    for entry in std::fs::read_dir(from).map_err(io_err(from))? {
        let entry = entry.map_err(io_err(from))?;
        if entry.path().is_file() {
            super::output::copy_file(&entry.path(), &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}
