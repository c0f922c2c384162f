//! What Hadoop 3.x's victim search reads (`FSPreemptionThread.identifyContainersToPreempt`):
//! every node's unallocated resources, its reservation, what it holds for starved apps and its
//! live containers, and the load of each app owning one. One copy serves a whole preemption
//! pass: the search marks victims in the copy as it chooses them (what the node holds and the
//! owner's resources to be preempted grow by the container's size), which is what a fresh copy taken after
//! the marks would read, as nothing else a search reads moves during the pass (no container
//! starts or ends in an update tick; kills are events after it). Debug builds check the copy
//! against the per-app copy before every search.
//!
//! Only apps that own a live container the search may take get an owner view, the rest are
//! never read: a copy of every app ever submitted cost a cold cache line per app (100,000
//! in the 1,000-node day) per starved app.

use crate::app::AppPhase;
use crate::preemption::victims::{NodeContainer, NodeView, OwnerView};
use crate::scheduler::Sched;
use fairsim_core::Resource;

/// The victim search's views for one preemption pass.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PassViews {
    /// One view per node of the cluster (by node index); each container's `app` is an
    /// index into `owners`.
    pub nodes: Vec<NodeView>,
    /// One view per app owning a live non-AM container, in the order of their first
    /// container's slot.
    pub owners: Vec<OwnerView>,
    /// The app (simulation index) of each owner view.
    owner_apps: Vec<u32>,
    /// Each node view's containers' slots, in the order of its containers.
    slots: Vec<Vec<u32>>,
}

impl PassViews {
    /// The slot of container `id`, a container of node `node`'s view.
    pub(crate) fn slot(&self, node: u32, id: u64) -> u32 {
        let n = node as usize;
        let k = (self.nodes[n].containers.iter())
            .position(|c| c.id == id)
            .expect("a chosen container is in its node's view");
        self.slots[n][k]
    }
}

impl Sched<'_, '_> {
    /// The views as they stand: a node out of the cluster offers nothing; a node's held
    /// resource is the sum of its holds for starved apps (which count its marked containers
    /// until they are handed back, killed or not); AM containers are left out (fairsim never
    /// chooses them).
    pub(crate) fn victim_views(&self) -> PassViews {
        // Each node's lists sized for its containers at once (their growth by doubling was
        // most of the copy's cost).
        let mut nodes: Vec<NodeView> = (self.w.cluster.nodes.iter().enumerate())
            .map(|(i, n)| node_view(n, n.n_containers as usize, self.held_total(i as u32)))
            .collect();
        let mut slots: Vec<Vec<u32>> = (self.w.cluster.nodes.iter())
            .map(|n| Vec::with_capacity(n.n_containers as usize))
            .collect();
        let mut owner_of = vec![u32::MAX; self.w.apps.len()];
        let mut owner_apps: Vec<u32> = Vec::new();
        let mut marked: Vec<Resource> = Vec::new();
        for (slot, c) in self.w.containers.iter().enumerate() {
            if !c.live || c.is_am {
                continue;
            }
            let k = match owner_of[c.app as usize] {
                u32::MAX => {
                    let k = owner_apps.len() as u32;
                    owner_of[c.app as usize] = k;
                    owner_apps.push(c.app);
                    marked.push(Resource::ZERO);
                    k
                }
                k => k,
            };
            let nv = &mut nodes[c.node as usize];
            if c.marked_at().is_some() {
                marked[k as usize] = marked[k as usize].saturating_add(c.size);
            }
            nv.containers.push(NodeContainer {
                app: k,
                id: c.id,
                size: c.size,
                is_am: false,
            });
            slots[c.node as usize].push(slot as u32);
        }
        let owners = (owner_apps.iter().zip(marked))
            .map(|(&a, m)| self.owner_view(a, m))
            .collect();
        PassViews {
            nodes,
            owners,
            owner_apps,
            slots,
        }
    }

    /// App `a` as the search reads it, `marked` of its containers to be preempted.
    fn owner_view(&self, a: u32, marked: Resource) -> OwnerView {
        let app = &self.w.apps[a as usize];
        let queue = self.w.tree.get(app.queue);
        OwnerView {
            usage: app.usage,
            fair_share: self.w.app_fair_shares[a as usize],
            to_be_preempted: marked,
            preemptable: app.phase == AppPhase::Runnable && queue.allow_preemption_from,
            calc: queue.policy.calculator(),
        }
    }

    /// Debug builds: `views`, kept through the pass, read what a copy of every node and app
    /// taken now reads (the search before one copy per pass: a node view per node, an
    /// owner view per app, containers named by their app).
    #[cfg(debug_assertions)]
    pub(crate) fn check_pass_views(&self, views: &PassViews) {
        let mut nodes: Vec<NodeView> = (self.w.cluster.nodes.iter().enumerate())
            .map(|(i, n)| node_view(n, 0, self.held_total(i as u32)))
            .collect();
        let mut marked = vec![Resource::ZERO; self.w.apps.len()];
        let mut slots = vec![Vec::new(); nodes.len()];
        for (slot, c) in self.w.containers.iter().enumerate() {
            if !c.live || c.is_am {
                continue;
            }
            if c.marked_at().is_some() {
                marked[c.app as usize] = marked[c.app as usize].saturating_add(c.size);
            }
            nodes[c.node as usize].containers.push(NodeContainer {
                app: c.app,
                id: c.id,
                size: c.size,
                is_am: false,
            });
            slots[c.node as usize].push(slot as u32);
        }
        let owners: Vec<OwnerView> = (0..self.w.apps.len() as u32)
            .map(|a| self.owner_view(a, marked[a as usize]))
            .collect();
        // The kept views with their containers named by app.
        let named: Vec<NodeView> = (views.nodes.iter())
            .map(|n| NodeView {
                containers: (n.containers.iter())
                    .map(|c| NodeContainer {
                        app: views.owner_apps[c.app as usize],
                        ..*c
                    })
                    .collect(),
                ..n.clone()
            })
            .collect();
        assert_eq!(named, nodes, "the pass's node views drifted from a copy");
        assert_eq!(views.slots, slots, "the pass's container slots drifted");
        for (k, &a) in views.owner_apps.iter().enumerate() {
            assert_eq!(
                views.owners[k], owners[a as usize],
                "the pass's view of app {a} drifted from a copy"
            );
        }
    }
}

/// Node `n` as the search reads it before its containers are added (room for `capacity`),
/// `held` for starved apps: a node out of the cluster offers nothing.
fn node_view(n: &crate::cluster::Node, capacity: usize, held: Resource) -> NodeView {
    NodeView {
        unallocated: if n.is_live() {
            n.available()
        } else {
            Resource::ZERO
        },
        reserved: n.reservation.map_or(Resource::ZERO, |r| r.size),
        held,
        containers: Vec::with_capacity(capacity),
    }
}
