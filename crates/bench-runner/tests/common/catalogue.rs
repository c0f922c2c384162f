//! The bad-input catalogues' verdict: every case checked, every misbehaviour listed at once.

/// Checks every case of `cases` (`check` says what it did wrong, if anything) and fails
/// naming each case that misbehaved by its `what`.
pub fn assert_every_case<C>(
    cases: &[C],
    what: impl Fn(&C) -> &str,
    check: impl Fn(&C) -> Option<String>,
) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| check(c).map(|w| format!("{}: {w}", what(c))))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases misbehaved:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
