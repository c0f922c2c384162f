//! SLS SYNTH generator files (`syn.json`).
