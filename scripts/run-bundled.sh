#!/usr/bin/env bash
# The README's run command: fairsim on the bundled scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin fairsim
# The main job: simulate the seed's SLS queues; writes results/sls_queues/.
./target/release/fairsim run scenarios/sls_queues.toml
# The admin's view of a snapshot: fair shares and the order resources are offered in.
./target/release/fairsim shares scenarios/snapshot-seed004.json
./target/release/fairsim rank scenarios/snapshot-seed004.json
./target/release/fairsim compare scenarios/compare/fair.toml scenarios/compare/capacity.toml --out results/compare
