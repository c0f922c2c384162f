//! Property tests (seeded, reproducible) for preemption and the Capacity Scheduler's ideal
//! assignment: what no random input may break.

mod common;

use fairsim_core::{Calculator, Resource, Schedulable, Semantics};
use fairsim_sim::capacity::Capacities;
use fairsim_sim::capacity::ideal::{PcppConfig, compute_ideal, temp_queues};
use fairsim_sim::preemption::victims::{
    AppView, ContainerView, Decision, NodeContainer, NodeView, OwnerView, Preemptor27, QueueView,
    Search33, Snapshot27, StarvedRequest,
};
use fairsim_sim::tree::{QueueConf, QueueId, QueueTree, SchedulerKind};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config(cases: u32) -> Config {
    common::generator::fixed_config(cases, 0x009e_e397)
}

fn mb(m: i64) -> Resource {
    Resource::new(m, 0)
}

/// root with `n` leaves; capacities (percent) and maxima given per leaf.
fn flat_tree(kind: SchedulerKind, caps: &[(f64, f64)]) -> QueueTree {
    let mut root = QueueConf::new("root", None);
    root.is_leaf = false;
    let mut queues = vec![root];
    for (i, &(cap, max)) in caps.iter().enumerate() {
        let mut q = QueueConf::new(format!("root.q{i}"), Some(QueueId::ROOT));
        q.capacity_percent = Some(cap);
        q.maximum_capacity_percent = Some(max);
        queues.push(q);
        queues[0].children.push(QueueId(i as u32 + 1));
    }
    QueueTree {
        queues,
        user_max_apps: Default::default(),
        user_max_apps_default: None,
        placement: Vec::new(),
        scheduler: kind,
        resource_calculator: Calculator::MemoryOnly,
        new_queue_defaults: Default::default(),
    }
}

/// Capacities summing to 100 (integers) with maxima at or above them.
fn capacities() -> impl Strategy<Value = Vec<(f64, f64)>> {
    prop::collection::vec((0u32..10, 0u32..=100), 2..5).prop_map(|v| {
        let total: u32 = v.iter().map(|(w, _)| w).sum::<u32>().max(1);
        let mut caps: Vec<u32> = v.iter().map(|(w, _)| w * 100 / total).collect();
        let sum: u32 = caps.iter().sum();
        caps[0] += 100 - sum;
        caps.iter()
            .zip(&v)
            .map(|(&c, &(_, extra))| (c as f64, (c + extra).min(100) as f64))
            .collect()
    })
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn ideal_assignment_respects_guarantees_maxima_and_wants(
        caps in capacities(),
        loads in prop::collection::vec((0i64..40_000, 0i64..40_000), 5),
    ) {
        let tree = flat_tree(SchedulerKind::Capacity, &caps);
        let c = Capacities::of(&tree);
        let cluster = mb(100_000);
        let n = tree.len();
        let mut cur = vec![Resource::ZERO; n];
        let mut pen = vec![Resource::ZERO; n];
        let mut used = 0;
        for i in 1..n {
            let take = loads[i - 1].0.min(cluster.memory_mb - used);
            used += take;
            cur[i] = mb(take);
            pen[i] = mb(loads[i - 1].1);
        }
        let mut qs = temp_queues(&tree, &c, cluster, &cur, &pen);
        compute_ideal(&tree, Calculator::MemoryOnly, cluster, &PcppConfig::default(), &mut qs);
        let mut sum = 0;
        for q in &qs[1..] {
            let keep = q.current.memory_mb.min(q.guaranteed.memory_mb);
            prop_assert!(q.ideal.memory_mb >= keep, "{q:?}");
            prop_assert!(q.ideal.memory_mb <= q.maximum.memory_mb.max(keep), "{q:?}");
            prop_assert!(q.ideal.memory_mb <= (q.current.memory_mb + q.pending.memory_mb).max(keep), "{q:?}");
            prop_assert!(q.to_be_preempted.memory_mb <= (q.current.memory_mb - q.ideal.memory_mb).max(0));
            prop_assert!(q.to_be_preempted.memory_mb >= 0);
            sum += q.ideal.memory_mb;
        }
        // Offers are rounded up, so the children may exceed the parent by 1 MB each.
        prop_assert!(sum <= cluster.memory_mb + (n as i64 - 1), "sum {sum}");
    }

    #[test]
    fn fs27_never_takes_from_a_leaf_at_or_below_its_fair_share(
        apps in prop::collection::vec((0u32..2, prop::collection::vec((0i32..3, 1i64..5), 0..6)), 1..5),
        fair in (0i64..20, 0i64..20),
        want in 1i64..40,
    ) {
        let tree = flat_tree(SchedulerKind::Fair, &[(0.0, 100.0), (0.0, 100.0)]);
        let mut id = 0;
        let views: Vec<AppView> = apps
            .iter()
            .enumerate()
            .map(|(i, (leaf, cs))| {
                let containers: Vec<ContainerView> = cs
                    .iter()
                    .map(|&(priority, units)| {
                        id += 1;
                        ContainerView { id, priority, size: mb(units * 512), marked_at: None, is_am: false }
                    })
                    .collect();
                let usage = containers.iter().fold(Resource::ZERO, |u, c| u.saturating_add(c.size));
                AppView {
                    leaf: QueueId(leaf + 1),
                    sched: Schedulable { usage, demand: usage, start_time_ms: i as i64, ..Schedulable::new(format!("app_{i}")) },
                    containers,
                }
            })
            .collect();
        let fair_of = [mb(40 * 512), mb(fair.0 * 512), mb(fair.1 * 512)];
        let snap = Snapshot27 {
            tree: &tree,
            semantics: Semantics::Hadoop27,
            cluster: mb(40 * 512),
            queues: (0..3).map(|i| QueueView { sched: Schedulable::new(tree.queues[i].name.clone()), fair_share: fair_of[i] }).collect(),
            apps: views.clone(),
            lists: None,
        };
        let mut p = Preemptor27::new();
        let decisions = p.preempt_resources(0, 15_000, &snap, mb(want * 512));
        for leaf in 1..3u32 {
            let usage: i64 = views.iter().filter(|a| a.leaf == QueueId(leaf)).map(|a| a.sched.usage.memory_mb).sum();
            let mut taken = 0;
            let mut largest = 0;
            for d in &decisions {
                let Decision::Warn(c) = d else { panic!("nothing was warned before") };
                let a = &views[c.app as usize];
                if a.leaf == QueueId(leaf) {
                    let size = a.containers.iter().find(|x| x.id == c.id).expect("live").size.memory_mb;
                    taken += size;
                    largest = largest.max(size);
                }
            }
            let fair = fair_of[leaf as usize].memory_mb;
            if usage <= fair {
                prop_assert_eq!(taken, 0);
            } else {
                // Each pick leaves the leaf above its fair share before the pick.
                prop_assert!(usage - taken > fair - largest, "usage {usage} taken {taken} fair {fair}");
            }
        }
    }

    #[test]
    fn fs27_victims_do_not_depend_on_list_order_under_a_strict_order(
        apps in prop::collection::vec((0u32..2, 0i64..3, prop::collection::vec((0i32..3, 1i64..5), 0..6)), 1..6),
        min_shares in (0i64..12, 0i64..12),
        fair in (0i64..20, 0i64..20),
        want in 1i64..40,
        keys in prop::collection::vec(any::<u32>(), 7),
    ) {
        // The fair policy with weight 1 orders queues and apps strictly (ties fall to the
        // start time, then to distinct names): the victims are the same whatever order the
        // lists are scanned in (victims.rs, "Which of equals is the victim").
        let tree = flat_tree(SchedulerKind::Fair, &[(0.0, 100.0), (0.0, 100.0)]);
        let mut id = 0;
        let views: Vec<AppView> = apps
            .iter()
            .enumerate()
            .map(|(i, (leaf, start, cs))| {
                let containers: Vec<ContainerView> = cs
                    .iter()
                    .map(|&(priority, units)| {
                        id += 1;
                        ContainerView { id, priority, size: mb(units * 512), marked_at: None, is_am: false }
                    })
                    .collect();
                let usage = containers.iter().fold(Resource::ZERO, |u, c| u.saturating_add(c.size));
                AppView {
                    leaf: QueueId(leaf + 1),
                    sched: Schedulable { usage, demand: usage, start_time_ms: *start, ..Schedulable::new(format!("app_{i}")) },
                    containers,
                }
            })
            .collect();
        let queue = |i: usize, min: i64, fair: i64| QueueView {
            sched: Schedulable { min_share: mb(min * 512), demand: mb(40 * 512), ..Schedulable::new(tree.queues[i].name.clone()) },
            fair_share: mb(fair * 512),
        };
        let snap = |lists: Option<Vec<Vec<u32>>>| Snapshot27 {
            tree: &tree,
            semantics: Semantics::Hadoop27,
            cluster: mb(40 * 512),
            queues: vec![queue(0, 0, 40), queue(1, min_shares.0, fair.0), queue(2, min_shares.1, fair.1)],
            apps: views.clone(),
            lists,
        };
        // Each list in an order drawn from `keys`.
        let shuffled = |mut v: Vec<u32>| {
            v.sort_by_key(|&x| keys[x as usize % keys.len()].rotate_left(x));
            v
        };
        let leaf_list = |leaf: u32| shuffled((0..views.len() as u32).filter(|&i| views[i as usize].leaf == QueueId(leaf)).collect());
        let lists = vec![shuffled(vec![1, 2]), leaf_list(1), leaf_list(2)];
        let configured = Preemptor27::new().preempt_resources(0, 15_000, &snap(None), mb(want * 512));
        let scanned = Preemptor27::new().preempt_resources(0, 15_000, &snap(Some(lists)), mb(want * 512));
        prop_assert_eq!(configured, scanned);
    }

    #[test]
    fn fs33_search_keeps_every_owner_at_or_above_its_fair_share(
        nodes in prop::collection::vec(prop::collection::vec((0u32..3, 1i64..4, any::<bool>()), 0..4), 1..5),
        fair in prop::collection::vec(0i64..12, 3),
        want in 1i64..6,
        count in 1u32..4,
    ) {
        let mut id = 0;
        let mut usage = [0i64; 3];
        let mut views: Vec<NodeView> = nodes
            .iter()
            .map(|cs| NodeView {
                unallocated: Resource::ZERO,
                reserved: Resource::ZERO,
                held: Resource::ZERO,
                containers: cs
                    .iter()
                    .map(|&(app, units, is_am)| {
                        id += 1;
                        usage[app as usize] += units * 1024;
                        NodeContainer { app, id, size: mb(units * 1024), is_am }
                    })
                    .collect(),
            })
            .collect();
        let mut owners: Vec<OwnerView> = (0..3)
            .map(|a| OwnerView {
                usage: mb(usage[a]),
                fair_share: mb(fair[a] * 1024),
                to_be_preempted: Resource::ZERO,
                preemptable: true,
                calc: Calculator::MemoryOnly,
            })
            .collect();
        let mut s = Search33::default();
        let req = StarvedRequest { size: mb(want * 1024), count, nodes: None, relax_locality: true };
        let sets = s.for_app(&[req], &mut views, &mut owners, mb(100_000));
        for o in &owners {
            if o.to_be_preempted != Resource::ZERO {
                prop_assert!(o.usage.memory_mb - o.to_be_preempted.memory_mb >= o.fair_share.memory_mb, "{o:?}");
            }
        }
        for set in &sets {
            // Non-AM containers are examined before AM ones on a node.
            let first_am = set.containers.iter().position(|c| c.is_am).unwrap_or(set.containers.len());
            prop_assert!(set.containers[first_am..].iter().all(|c| c.is_am));
            let freed: i64 = set.containers.iter().map(|c| c.size.memory_mb).sum();
            prop_assert!(freed >= want * 1024);
        }
    }

    #[test]
    fn fs33_one_copy_per_pass_chooses_as_a_copy_per_starved_app(
        nodes in prop::collection::vec(
            (0i64..3, 0i64..2, prop::collection::vec((0u32..4, 1i64..4, any::<bool>(), any::<bool>()), 0..5)),
            1..6,
        ),
        fair in prop::collection::vec(0i64..12, 4),
        preemptable in prop::collection::vec(any::<bool>(), 4),
        starved in prop::collection::vec(
            prop::collection::vec((1i64..5, 1u32..3, prop::option::of(any::<u8>()), any::<bool>()), 1..3),
            1..5,
        ),
        rotate in 0u32..4,
        flip in any::<bool>(),
    ) {
        let cluster = Gen33 { nodes, fair, preemptable };
        let requests: Vec<Vec<StarvedRequest>> = starved
            .iter()
            .map(|reqs| {
                reqs.iter()
                    .map(|&(units, count, mask, relax_locality)| StarvedRequest {
                        size: mb(units * 1024),
                        count,
                        nodes: mask.map(|m| (0..cluster.nodes.len() as u32).filter(|n| m >> n & 1 == 1).collect()),
                        relax_locality,
                    })
                    .collect()
            })
            .collect();
        // The fresh copies name the owners otherwise (the engine's kept copy numbers the
        // owners it views, a copy per app numbered every app).
        let same: Vec<u32> = (0..4).collect();
        let other: Vec<u32> = (0..4)
            .map(|a| if flip { 3 - (a + rotate) % 4 } else { (a + rotate) % 4 })
            .collect();
        let mut marked = cluster.marked_at_start();
        let (mut nodes_kept, mut owners_kept) = cluster.views(&marked, &same);
        let mut kept = Search33 { marked: marked.clone(), ..Search33::default() };
        let mut fresh = Search33 { marked: marked.clone(), ..Search33::default() };
        for reqs in &requests {
            let (mut nodes_now, mut owners_now) = cluster.views(&marked, &other);
            let got = kept.for_app(reqs, &mut nodes_kept, &mut owners_kept, mb(100_000));
            let mut want = fresh.for_app(reqs, &mut nodes_now, &mut owners_now, mb(100_000));
            for c in want.iter_mut().flat_map(|s| s.containers.iter_mut()) {
                c.app = other.iter().position(|&l| l == c.app).expect("a label") as u32;
            }
            prop_assert_eq!(&got, &want);
            marked.extend(got.iter().flat_map(|s| s.containers.iter().map(|c| c.id)));
            // What the kept copy holds now is what a copy taken after the marks holds.
            prop_assert_eq!(&(nodes_kept.clone(), owners_kept.clone()), &cluster.views(&marked, &same));
        }
    }
}

/// A generated node: free units, reserved units, containers (owner, units, AM, marked).
type GenNode33 = (i64, i64, Vec<(u32, i64, bool, bool)>);

/// A generated cluster for Hadoop 3.x's victim search: per node its free and reserved units
/// (of 1024 MB) and its containers (owner, units, AM, marked at the start); per owner its
/// fair share in units and whether its queue allows preemption.
struct Gen33 {
    nodes: Vec<GenNode33>,
    fair: Vec<i64>,
    preemptable: Vec<bool>,
}

impl Gen33 {
    /// Containers by id (numbered from 1 over the nodes in order): (node, owner, units, AM,
    /// marked at the start).
    fn containers(&self) -> Vec<(u64, usize, u32, i64, bool, bool)> {
        let mut id = 0;
        let mut out = Vec::new();
        for (n, (_, _, cs)) in self.nodes.iter().enumerate() {
            for &(app, units, is_am, marked) in cs {
                id += 1;
                out.push((id, n, app, units, is_am, marked));
            }
        }
        out
    }

    fn marked_at_start(&self) -> std::collections::BTreeSet<u64> {
        self.containers()
            .iter()
            .filter(|c| c.5)
            .map(|c| c.0)
            .collect()
    }

    /// The search's views as a copy taken with `marked` chosen reads them: a node's
    /// marked containers held (none is handed back here), an owner's marked containers to be
    /// preempted; owner `a` is `label[a]`.
    fn views(
        &self,
        marked: &std::collections::BTreeSet<u64>,
        label: &[u32],
    ) -> (Vec<NodeView>, Vec<OwnerView>) {
        let mut nodes: Vec<NodeView> = self
            .nodes
            .iter()
            .map(|&(free, reserved, _)| NodeView {
                unallocated: mb(free * 1024),
                reserved: mb(reserved * 1024),
                held: Resource::ZERO,
                containers: Vec::new(),
            })
            .collect();
        let mut owners: Vec<OwnerView> = (0..4)
            .map(|a| OwnerView {
                usage: Resource::ZERO,
                fair_share: mb(self.fair[a] * 1024),
                to_be_preempted: Resource::ZERO,
                preemptable: self.preemptable[a],
                calc: Calculator::MemoryOnly,
            })
            .collect();
        for (id, n, app, units, is_am, _) in self.containers() {
            let size = mb(units * 1024);
            let o = &mut owners[app as usize];
            o.usage = o.usage.saturating_add(size);
            if marked.contains(&id) {
                o.to_be_preempted = o.to_be_preempted.saturating_add(size);
                nodes[n].held = nodes[n].held.saturating_add(size);
            }
            nodes[n].containers.push(NodeContainer {
                app: label[app as usize],
                id,
                size,
                is_am,
            });
        }
        let mut labelled = owners.clone();
        for (a, o) in owners.into_iter().enumerate() {
            labelled[label[a] as usize] = o;
        }
        (nodes, labelled)
    }
}
