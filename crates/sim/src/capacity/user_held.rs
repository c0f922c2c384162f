//! What each user holds in each leaf: its apps' containers and reservations there, the
//! "used" that `LeafQueue` compares with the user limit and sums over the active users
//! (Hadoop 3.x's `totalResUsageForActiveUsers`). Kept as containers and reservations come
//! and go, so that an offer reads it per user instead of walking the leaf's apps.

use crate::tree::QueueId;
use fairsim_core::Resource;

/// Per leaf, its users' holdings, sorted by user; users holding nothing are absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserHeld {
    by_leaf: Vec<Vec<(u32, Resource)>>,
}

impl UserHeld {
    /// `user` of `leaf` holds `delta` more.
    pub fn add(&mut self, leaf: QueueId, user: u32, delta: Resource) {
        if self.by_leaf.len() <= leaf.idx() {
            self.by_leaf.resize_with(leaf.idx() + 1, Vec::new);
        }
        let users = &mut self.by_leaf[leaf.idx()];
        match users.binary_search_by_key(&user, |e| e.0) {
            Ok(k) => users[k].1 = users[k].1.saturating_add(delta),
            Err(k) => users.insert(k, (user, delta)),
        }
    }

    /// `user` of `leaf` holds `delta` less (never below nothing).
    pub fn sub(&mut self, leaf: QueueId, user: u32, delta: Resource) {
        let Some(users) = self.by_leaf.get_mut(leaf.idx()) else {
            return;
        };
        if let Ok(k) = users.binary_search_by_key(&user, |e| e.0) {
            users[k].1 = users[k].1.saturating_sub(delta);
            if users[k].1 == Resource::ZERO {
                users.remove(k);
            }
        }
    }

    /// What `user` holds in `leaf`.
    pub fn of(&self, leaf: QueueId, user: u32) -> Resource {
        self.users(leaf)
            .binary_search_by_key(&user, |e| e.0)
            .map_or(Resource::ZERO, |k| self.users(leaf)[k].1)
    }

    /// What the users of `leaf` hold, sorted by user.
    pub fn users(&self, leaf: QueueId) -> &[(u32, Resource)] {
        self.by_leaf.get(leaf.idx()).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holdings_follow_adds_and_subs_and_drop_at_nothing() {
        let (a, b) = (QueueId(1), QueueId(2));
        let mut h = UserHeld::default();
        h.add(a, 7, Resource::new(2048, 1));
        h.add(a, 3, Resource::new(1024, 1));
        h.add(a, 7, Resource::new(1024, 1));
        h.add(b, 7, Resource::new(512, 1));
        assert_eq!(h.of(a, 7), Resource::new(3072, 2));
        assert_eq!(
            h.users(a),
            [(3, Resource::new(1024, 1)), (7, Resource::new(3072, 2))]
        );
        h.sub(a, 3, Resource::new(1024, 1));
        assert_eq!(h.users(a), [(7, Resource::new(3072, 2))]);
        assert_eq!(h.of(a, 3), Resource::ZERO);
        assert_eq!(h.of(b, 7), Resource::new(512, 1));
        assert_eq!(h.of(QueueId(9), 7), Resource::ZERO);
    }
}
