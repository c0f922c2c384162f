//! The apps' part of the cycle fingerprint, made again only for the apps that changed.
//!
//! An app's text is the `Debug` text of its state with the relative fields put in (its AM's
//! container as a rank among the live ones, missed opportunities and delay ages clamped where
//! only a comparison reads them) and the output counters cleared. The text is a function of
//! the state as stored and of those put-in values alone, so when both equal what they were at
//! the last text made for the app, the text is the same one and is not made again: the
//! comparison of two states costs what changed between them, not a format of every app.
//!
//! Texts are interned: a state's apps become one id per app, and two ids are equal exactly
//! when the texts are. Equal id lists therefore mean exactly what equal concatenated texts
//! meant, for any number of apps.

use crate::engine::AppState;
use std::collections::HashMap;

/// Interned app texts and, per app, the state its last text was made from.
#[derive(Debug, Default)]
pub(crate) struct AppPrints {
    /// Text → its id.
    ids: HashMap<String, u32>,
    /// Per app index: the state and put-in values of its last text, and the text's id.
    last: Vec<Option<Made>>,
    /// Bytes of the interned texts.
    bytes: usize,
    /// Texts made (not found unchanged), for tests of the saving.
    made: u64,
}

/// What an app's last text was made from.
#[derive(Debug)]
struct Made {
    state: AppState,
    put_in: Vec<u64>,
    id: u32,
}

impl AppPrints {
    /// The id of app `i`'s text: `put_in` are the relative values (see
    /// [`AppPrints::put_in`]), `text` makes the text from the state and those values when
    /// either changed since the last one.
    pub(crate) fn id(
        &mut self,
        i: usize,
        app: &AppState,
        put_in: &[u64],
        text: impl FnOnce(&AppState, &[u64]) -> String,
    ) -> u32 {
        if self.last.len() <= i {
            self.last.resize_with(i + 1, || None);
        }
        if let Some(m) = &self.last[i]
            && m.put_in == put_in
            && m.state == *app
        {
            return m.id;
        }
        self.made += 1;
        let t = text(app, put_in);
        let next = self.ids.len() as u32;
        let id = match self.ids.get(&t) {
            Some(&id) => id,
            None => {
                self.bytes += t.len();
                self.ids.insert(t, next);
                next
            }
        };
        self.last[i] = Some(Made {
            state: app.clone(),
            put_in: put_in.to_vec(),
            id,
        });
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

    /// Forgets every text and state (ids start again from 0).
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
    use crate::tree::QueueId;
    use fairsim_core::Schedulable;

    fn app(live: u32) -> AppState {
        let mut app = AppState::new(Schedulable::new("app"), 0, Vec::new());
        app.phase = AppPhase::Runnable;
        app.queue = QueueId(1);
        app.live = live;
        app
    }

    fn text(a: &AppState, put_in: &[u64]) -> String {
        format!("{} {put_in:?}", a.live)
    }

    #[test]
    fn a_text_is_made_again_only_when_the_state_or_a_put_in_value_changed() {
        let mut p = AppPrints::default();
        // First sight of apps 0 and 2: two texts made, "1 [5]" and "2 [5]".
        assert_eq!(p.id(0, &app(1), &[5], text), 0);
        assert_eq!(p.id(2, &app(2), &[5], text), 1);
        assert_eq!(p.made(), 2);
        // Unchanged: the same ids, nothing made.
        assert_eq!(p.id(0, &app(1), &[5], text), 0);
        assert_eq!(p.id(2, &app(2), &[5], text), 1);
        assert_eq!(p.made(), 2);
        // A put-in value changed: made again, a new text "1 [6]" gets id 2.
        assert_eq!(p.id(0, &app(1), &[6], text), 2);
        // The state changed: app 2 now reads "1 [6]", the text app 0 has: the same id.
        assert_eq!(p.id(2, &app(1), &[6], text), 2);
        assert_eq!(p.made(), 4);
        // Back to an earlier text: its earlier id.
        assert_eq!(p.id(0, &app(1), &[5], text), 0);
        // "1 [5]", "2 [5]", "1 [6]": 5 + 5 + 5 bytes.
        assert_eq!(p.bytes(), 15);
        p.clear();
        assert_eq!(p.bytes(), 0);
        assert_eq!(p.id(0, &app(1), &[5], text), 0);
    }
}
