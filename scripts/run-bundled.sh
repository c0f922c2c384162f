#!/usr/bin/env bash
# The README's run command: fairsim on the bundled scenario.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin fairsim
./target/release/fairsim shares scenarios/snapshot-seed004.json
./target/release/fairsim rank scenarios/snapshot-seed004.json
./target/release/fairsim compare scenarios/compare/fair.toml scenarios/compare/capacity.toml --out results/compare
