//! The iteration order of a `java.util.TreeSet` built by adding items one by one, as Hadoop
//! 3.x's Fair Scheduler builds one per descent (`FSParentQueue.assignContainer`,
//! `FSLeafQueue.fetchAppsWithDemand`).
//!
//! With a comparator that is a strict total order this is the sorted order. With one that is
//! not (NaN ratios compare as ties and fall to the name), the order depends on the shape of
//! the red-black tree the insertions built, so this replays `TreeMap.put` step for step: the
//! descent from the root (left when smaller, right when larger; an item comparing equal to
//! one in the set is not added, as `TreeSet.add` returns false) and CLR's
//! `fixAfterInsertion` with its rotations. Never panics.

use std::cmp::Ordering;

struct Node<T> {
    item: T,
    left: Option<usize>,
    right: Option<usize>,
    parent: Option<usize>,
    red: bool,
}

struct Tree<T> {
    nodes: Vec<Node<T>>,
    root: Option<usize>,
}

impl<T: Copy> Tree<T> {
    fn red(&self, n: Option<usize>) -> bool {
        // A missing node is black (`TreeMap.colorOf(null)`).
        n.is_some_and(|i| self.nodes[i].red)
    }

    fn parent(&self, n: Option<usize>) -> Option<usize> {
        n.and_then(|i| self.nodes[i].parent)
    }

    fn left(&self, n: Option<usize>) -> Option<usize> {
        n.and_then(|i| self.nodes[i].left)
    }

    fn right(&self, n: Option<usize>) -> Option<usize> {
        n.and_then(|i| self.nodes[i].right)
    }

    fn set_red(&mut self, n: Option<usize>, red: bool) {
        if let Some(i) = n {
            self.nodes[i].red = red;
        }
    }

    /// Puts `child` where `old` hung from `old`'s parent.
    fn replace_in_parent(&mut self, old: usize, child: usize) {
        let p = self.nodes[old].parent;
        self.nodes[child].parent = p;
        match p {
            None => self.root = Some(child),
            Some(p) if self.nodes[p].left == Some(old) => self.nodes[p].left = Some(child),
            Some(p) => self.nodes[p].right = Some(child),
        }
    }

    fn rotate_left(&mut self, p: Option<usize>) {
        let Some(p) = p else { return };
        let Some(r) = self.nodes[p].right else { return };
        let rl = self.nodes[r].left;
        self.nodes[p].right = rl;
        if let Some(x) = rl {
            self.nodes[x].parent = Some(p);
        }
        self.replace_in_parent(p, r);
        self.nodes[r].left = Some(p);
        self.nodes[p].parent = Some(r);
    }

    fn rotate_right(&mut self, p: Option<usize>) {
        let Some(p) = p else { return };
        let Some(l) = self.nodes[p].left else { return };
        let lr = self.nodes[l].right;
        self.nodes[p].left = lr;
        if let Some(x) = lr {
            self.nodes[x].parent = Some(p);
        }
        self.replace_in_parent(p, l);
        self.nodes[l].right = Some(p);
        self.nodes[p].parent = Some(l);
    }

    /// `TreeMap.fixAfterInsertion`.
    fn fix_after_insertion(&mut self, x: usize) {
        let mut x = Some(x);
        self.set_red(x, true);
        while x.is_some() && x != self.root && self.red(self.parent(x)) {
            let px = self.parent(x);
            let gx = self.parent(px);
            if px == self.left(gx) {
                let y = self.right(gx);
                if self.red(y) {
                    self.set_red(px, false);
                    self.set_red(y, false);
                    self.set_red(gx, true);
                    x = gx;
                } else {
                    if x == self.right(px) {
                        x = px;
                        self.rotate_left(x);
                    }
                    let px = self.parent(x);
                    let gx = self.parent(px);
                    self.set_red(px, false);
                    self.set_red(gx, true);
                    self.rotate_right(gx);
                }
            } else {
                let y = self.left(gx);
                if self.red(y) {
                    self.set_red(px, false);
                    self.set_red(y, false);
                    self.set_red(gx, true);
                    x = gx;
                } else {
                    if x == self.left(px) {
                        x = px;
                        self.rotate_right(x);
                    }
                    let px = self.parent(x);
                    let gx = self.parent(px);
                    self.set_red(px, false);
                    self.set_red(gx, true);
                    self.rotate_left(gx);
                }
            }
        }
        let root = self.root;
        self.set_red(root, false);
    }

    /// `TreeSet.add`: false when an item compares equal to one already in the set.
    fn add(&mut self, item: T, cmp: &mut impl FnMut(&T, &T) -> Ordering) -> bool {
        let Some(mut t) = self.root else {
            self.nodes.push(Node {
                item,
                left: None,
                right: None,
                parent: None,
                red: false,
            });
            self.root = Some(self.nodes.len() - 1);
            return true;
        };
        let left = loop {
            match cmp(&item, &self.nodes[t].item) {
                Ordering::Less => match self.nodes[t].left {
                    Some(l) => t = l,
                    None => break true,
                },
                Ordering::Greater => match self.nodes[t].right {
                    Some(r) => t = r,
                    None => break false,
                },
                Ordering::Equal => return false,
            }
        };
        let e = self.nodes.len();
        self.nodes.push(Node {
            item,
            left: None,
            right: None,
            parent: Some(t),
            red: false,
        });
        if left {
            self.nodes[t].left = Some(e);
        } else {
            self.nodes[t].right = Some(e);
        }
        self.fix_after_insertion(e);
        true
    }

    /// In-order items (the set's iteration order).
    fn in_order(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = Vec::new();
        let mut cur = self.root;
        while cur.is_some() || !stack.is_empty() {
            while let Some(c) = cur {
                stack.push(c);
                cur = self.nodes[c].left;
            }
            if let Some(c) = stack.pop() {
                out.push(self.nodes[c].item);
                cur = self.nodes[c].right;
            }
        }
        out
    }
}

/// The order in which a `TreeSet` with comparator `cmp` iterates `items` added in order.
pub fn tree_set_order<T: Copy>(items: &[T], mut cmp: impl FnMut(&T, &T) -> Ordering) -> Vec<T> {
    let mut tree = Tree {
        nodes: Vec::with_capacity(items.len()),
        root: None,
    };
    for &item in items {
        tree.add(item, &mut cmp);
    }
    tree.in_order()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_order_comes_out_sorted() {
        let items = [5, 3, 9, 1, 4, 8, 2, 7, 6, 0];
        assert_eq!(
            tree_set_order(&items, |a, b| a.cmp(b)),
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        // Ascending input rotates at every other insertion; the order is still sorted.
        let asc: Vec<i32> = (0..40).collect();
        assert_eq!(tree_set_order(&asc, |a, b| a.cmp(b)), asc);
        let desc: Vec<i32> = (0..40).rev().collect();
        assert_eq!(tree_set_order(&desc, |a, b| a.cmp(b)), asc);
    }

    #[test]
    fn random_total_orders_come_out_sorted_and_deduplicated() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..200usize {
            let items: Vec<u64> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x % 64
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(tree_set_order(&items, |a, b| a.cmp(b)), expected);
        }
    }

    #[test]
    fn equal_items_are_added_once() {
        assert_eq!(tree_set_order(&[2, 1, 2, 1], |a, b| a.cmp(b)), [1, 2]);
    }

    /// A cycle: a < b, b < c, c < a. Add a (root), b (greater than a: its right child), c
    /// (less than a: its left child); no rotation (a is black). In order: c, a, b, where
    /// Java's `List.sort` of [a, b, c] would keep [a, b, c] (b > a and c > b: one run).
    #[test]
    fn a_cycle_follows_the_tree_the_insertions_built() {
        let cycle = |x: &char, y: &char| match (*x, *y) {
            (p, q) if p == q => Ordering::Equal,
            ('a', 'b') | ('b', 'c') | ('c', 'a') => Ordering::Less,
            _ => Ordering::Greater,
        };
        assert_eq!(tree_set_order(&['a', 'b', 'c'], cycle), ['c', 'a', 'b']);
        // Added b, c, a: c is b's right child, a is less than b (its left child): a, b, c.
        assert_eq!(tree_set_order(&['b', 'c', 'a'], cycle), ['a', 'b', 'c']);
    }
}
