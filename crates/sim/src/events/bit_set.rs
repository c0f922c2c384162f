//! An ordered set of the integers below a fixed bound, as a two-level bitmap.
//!
//! The heartbeat clock keeps the positions of its armed nodes here: a node is armed and
//! disarmed at nearly every reservation, and the clock asks for the first armed position at
//! or after its cursor at every pop while only armed nodes beat. A `BTreeSet` cost a node
//! search (and often an allocation or a merge) per change; here a change is a bit and a
//! search reads one word, then one summary word per 4,096 positions.

/// The set (see the module docs). Iteration is in ascending order.
#[derive(Debug, Clone, Default)]
pub(crate) struct BitSet {
    /// Bit `i % 64` of word `i / 64`: `i` is in the set.
    words: Vec<u64>,
    /// Bit `w % 64` of summary word `w / 64`: word `w` is not zero.
    summary: Vec<u64>,
}

impl BitSet {
    /// The empty set of integers below `bound`.
    pub(crate) fn new(bound: usize) -> BitSet {
        let n_words = bound.div_ceil(64);
        BitSet {
            words: vec![0; n_words],
            summary: vec![0; n_words.div_ceil(64)],
        }
    }

    /// Adds `i` (below the bound).
    pub(crate) fn insert(&mut self, i: u32) {
        let w = i as usize / 64;
        self.words[w] |= 1 << (i % 64);
        self.summary[w / 64] |= 1 << (w % 64);
    }

    /// Removes `i` (below the bound) if present.
    pub(crate) fn remove(&mut self, i: u32) {
        let w = i as usize / 64;
        self.words[w] &= !(1 << (i % 64));
        if self.words[w] == 0 {
            self.summary[w / 64] &= !(1 << (w % 64));
        }
    }

    /// The smallest member at or after `from`.
    pub(crate) fn first_from(&self, from: u32) -> Option<u32> {
        let w = from as usize / 64;
        let in_word = self.words.get(w)? & (u64::MAX << (from % 64));
        if in_word != 0 {
            return Some((w * 64) as u32 + in_word.trailing_zeros());
        }
        // The next non-zero word after `w`, from the summary.
        let next = w + 1;
        let mut s = next / 64;
        let mut bits = self.summary.get(s)? & (u64::MAX << (next % 64));
        loop {
            if bits != 0 {
                let word = s * 64 + bits.trailing_zeros() as usize;
                return Some((word * 64) as u32 + self.words[word].trailing_zeros());
            }
            s += 1;
            bits = *self.summary.get(s)?;
        }
    }

    /// The members in ascending order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.first_from(0);
        std::iter::from_fn(move || {
            let i = next?;
            next = i.checked_add(1).and_then(|j| self.first_from(j));
            Some(i)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Random inserts and removes against a `BTreeSet`, with every `first_from` compared
    /// (bounds across one word, several words and several summary words).
    #[test]
    fn the_bit_set_answers_as_a_btree_set_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for bound in [1u32, 63, 64, 65, 130, 4096, 4097, 10_000] {
            let mut fast = BitSet::new(bound as usize);
            let mut model = BTreeSet::new();
            for step in 0..2_000 {
                // Growing sets first (two inserts in three), then shrinking ones.
                let i = (next() % u64::from(bound)) as u32;
                let inserts = if step < 1_000 { 2 } else { 1 };
                if next() % 3 < inserts {
                    fast.insert(i);
                    model.insert(i);
                } else {
                    fast.remove(i);
                    model.remove(&i);
                }
                let from = (next() % u64::from(bound + 1)) as u32;
                assert_eq!(
                    fast.first_from(from),
                    model.range(from..).next().copied(),
                    "bound {bound}, step {step}, from {from}"
                );
            }
            assert!(fast.iter().eq(model.iter().copied()), "bound {bound}");
        }
    }

    #[test]
    fn first_from_skips_empty_words_and_summary_words() {
        let mut s = BitSet::new(10_000);
        assert_eq!(s.first_from(0), None);
        s.insert(9_999);
        s.insert(64);
        // Word 1 holds 64; after it only 9,999, three summary words on.
        assert_eq!(s.first_from(0), Some(64));
        assert_eq!(s.first_from(65), Some(9_999));
        s.remove(9_999);
        assert_eq!(s.first_from(65), None);
        assert_eq!(s.first_from(10_000), None);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![64]);
    }
}
