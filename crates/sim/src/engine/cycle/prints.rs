//! The parts of the cycle fingerprint made again only for what changed: the open apps' texts
//! and the queues'.
//!
//! A part's text is a function of what it is made from (an app's stored state and the relative
//! values put into it; a queue's written fields and the fair share it reads, see
//! `parts::write_queue`) alone, so when that equals what the part's last text was made from,
//! the text is the same one and is not made again: the comparison of two states costs what
//! changed between them, not a format of every app and every queue.
//!
//! Texts are interned: a state's apps (and its queues) become one id each, and two ids are
//! equal exactly when the texts are. Equal id lists therefore mean exactly what equal
//! concatenated texts meant, for any number of apps or queues.

use std::collections::HashMap;

/// Interned texts and, per index, what its last text was made from.
#[derive(Debug)]
pub(crate) struct Prints<S> {
    /// Text → its id.
    ids: HashMap<String, u32>,
    /// Per index: what its last text was made from, and the text's id. Boxed: the list
    /// reaches the highest index seen, so an index never seen costs 8 bytes rather than what a
    /// text is made from (an app state: once a day's last apps are open, a million empty
    /// slots cost 8 MB, not 560 MB).
    last: Vec<Option<Box<(S, u32)>>>,
    /// Bytes of the interned texts.
    bytes: usize,
    /// Texts made (not found unchanged), for tests of the saving.
    made: u64,
}

impl<S> Default for Prints<S> {
    fn default() -> Prints<S> {
        Prints {
            ids: HashMap::new(),
            last: Vec::new(),
            bytes: 0,
            made: 0,
        }
    }
}

impl<S> Prints<S> {
    /// The id of part `i`'s text: `unchanged` tells whether what the last text was made from
    /// still holds, `make` gives what the text is made from now and the text, when it does
    /// not (or when part `i` has no text yet).
    pub(crate) fn id(
        &mut self,
        i: usize,
        unchanged: impl FnOnce(&S) -> bool,
        make: impl FnOnce() -> (S, String),
    ) -> u32 {
        if self.last.len() <= i {
            self.last.resize_with(i + 1, || None);
        }
        if let Some(made) = &self.last[i]
            && unchanged(&made.0)
        {
            return made.1;
        }
        self.made += 1;
        let (from, t) = make();
        let next = self.ids.len() as u32;
        let id = match self.ids.get(&t) {
            Some(&id) => id,
            None => {
                self.bytes += t.len();
                self.ids.insert(t, next);
                next
            }
        };
        self.last[i] = Some(Box::new((from, id)));
        id
    }

    /// Bytes the interned texts hold.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Texts made so far.
    #[cfg(test)]
    pub(crate) fn made(&self) -> u64 {
        self.made
    }

    /// Forgets every text and what it was made from (ids start again from 0).
    pub(crate) fn clear(&mut self) {
        self.ids.clear();
        self.last.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::AppPhase;
    use crate::engine::AppState;
    use crate::tree::QueueId;
    use fairsim_core::Schedulable;

    fn app(live: u32) -> AppState {
        let mut app = AppState::new(Schedulable::new("app"), 0, Vec::new());
        app.phase = AppPhase::Runnable;
        app.queue = QueueId(1);
        app.live = live;
        app
    }

    /// App `i`'s id as the fingerprint asks it: unchanged when the state and the put-in
    /// values are, the text "live [put_in]" otherwise.
    fn id(p: &mut Prints<(AppState, Vec<u64>)>, i: usize, a: &AppState, put_in: &[u64]) -> u32 {
        p.id(
            i,
            |(s, v)| v == put_in && s == a,
            || {
                (
                    (a.clone(), put_in.to_vec()),
                    format!("{} {put_in:?}", a.live),
                )
            },
        )
    }

    #[test]
    fn a_text_is_made_again_only_when_the_state_or_a_put_in_value_changed() {
        let mut p = Prints::default();
        // First sight of apps 0 and 2: two texts made, "1 [5]" and "2 [5]".
        assert_eq!(id(&mut p, 0, &app(1), &[5]), 0);
        assert_eq!(id(&mut p, 2, &app(2), &[5]), 1);
        assert_eq!(p.made(), 2);
        // Unchanged: the same ids, nothing made.
        assert_eq!(id(&mut p, 0, &app(1), &[5]), 0);
        assert_eq!(id(&mut p, 2, &app(2), &[5]), 1);
        assert_eq!(p.made(), 2);
        // A put-in value changed: made again, a new text "1 [6]" gets id 2.
        assert_eq!(id(&mut p, 0, &app(1), &[6]), 2);
        // The state changed: app 2 now reads "1 [6]", the text app 0 has: the same id.
        assert_eq!(id(&mut p, 2, &app(1), &[6]), 2);
        assert_eq!(p.made(), 4);
        // Back to an earlier text: its earlier id.
        assert_eq!(id(&mut p, 0, &app(1), &[5]), 0);
        // "1 [5]", "2 [5]", "1 [6]": 5 + 5 + 5 bytes.
        assert_eq!(p.bytes(), 15);
        p.clear();
        assert_eq!(p.bytes(), 0);
        assert_eq!(id(&mut p, 0, &app(1), &[5]), 0);
    }

    /// A part seen at a high index costs the indices below it one pointer each.
    #[test]
    fn indices_below_the_highest_seen_cost_a_pointer_each() {
        assert_eq!(
            std::mem::size_of::<Option<Box<((AppState, Vec<u64>), u32)>>>(),
            8
        );
        let mut p = Prints::default();
        id(&mut p, 999, &app(1), &[5]);
        assert_eq!(p.last.len(), 1000);
        assert_eq!(p.last.iter().filter(|m| m.is_some()).count(), 1);
    }
}
