//! Trace host hints (`container.host` of SLS traces like `/default-rack/a2118.smile.com`,
//! the hosts of Rumen attempts, the CSV `hosts` column) resolved against the cluster's node
//! names and racks, for locality.
//!
//! A hint names its host by the last `/` segment and its rack by what comes before. A known
//! host gives a node request and a request for the node's rack. A host no node has is kept as
//! YARN keeps it: the MapReduce AM asks for the host and its rack anyway, the
//! ResourceManager stores the requests, and no node ever matches the host (a request index
//! past the cluster's nodes). Its rack is the hint's (a bare name's is `default-rack`, as
//! YARN's rack resolver answers for a host it cannot place), matching that rack's nodes if
//! the cluster has one. So delay scheduling waits for them as for a busy host, and Hadoop
//! 2.7's demand counts them, as in YARN; with locality thresholds off (the default) they go
//! off-switch at once.

use crate::cluster::Cluster;
use crate::topology::entries::DEFAULT_RACK;
use crate::topology::hints::split;
use std::collections::HashMap;

/// Resolves hints to node and rack request indices; unknown hosts and racks get indices
/// past the cluster's (one per distinct name, in order of first use).
pub struct HintResolver<'c> {
    cluster: &'c Cluster,
    unknown_hosts: HashMap<String, u32>,
    unknown_racks: HashMap<String, u32>,
}

impl<'c> HintResolver<'c> {
    /// A resolver for `cluster`.
    pub fn new(cluster: &'c Cluster) -> Self {
        HintResolver {
            cluster,
            unknown_hosts: HashMap::new(),
            unknown_racks: HashMap::new(),
        }
    }

    /// The node and rack request indices of `hosts`, sorted and deduplicated.
    pub fn resolve(&mut self, hosts: &[String]) -> (Vec<u32>, Vec<u32>) {
        let mut nodes = Vec::with_capacity(hosts.len());
        let mut racks = Vec::with_capacity(hosts.len());
        for h in hosts {
            let (loc, host) = split(h);
            if let Some(n) = self.cluster.find_node(host) {
                nodes.push(n.0);
                racks.push(self.cluster.nodes[n.0 as usize].rack);
                continue;
            }
            let next = (self.cluster.nodes.len() + self.unknown_hosts.len()) as u32;
            nodes.push(*self.unknown_hosts.entry(host.to_string()).or_insert(next));
            let rack = if loc.is_empty() { DEFAULT_RACK } else { loc };
            let r = match self.cluster.find_rack(rack) {
                Some(r) => r,
                None => {
                    let next = (self.cluster.racks.len() + self.unknown_racks.len()) as u32;
                    *self.unknown_racks.entry(rack.to_string()).or_insert(next)
                }
            };
            racks.push(r);
        }
        nodes.sort_unstable();
        nodes.dedup();
        racks.sort_unstable();
        racks.dedup();
        (nodes, racks)
    }

    /// The names of the hosts and racks no node of the cluster has, by request index (the
    /// first past the cluster's nodes, or racks, first).
    pub fn into_unknown(self) -> UnknownNames {
        let by_index = |names: HashMap<String, u32>, first: usize| {
            let mut v: Vec<(u32, String)> = names.into_iter().map(|(n, i)| (i, n)).collect();
            v.sort_unstable();
            debug_assert!(
                v.iter()
                    .enumerate()
                    .all(|(k, (i, _))| *i as usize == first + k)
            );
            v.into_iter().map(|(_, n)| n).collect()
        };
        UnknownNames {
            hosts: by_index(self.unknown_hosts, self.cluster.nodes.len()),
            racks: by_index(self.unknown_racks, self.cluster.racks.len()),
        }
    }
}

/// Hosts and racks that trace hints name and no node of the cluster has: Hadoop 3.x's
/// preemption reads their names (a request's place in its request map depends on them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnknownNames {
    /// Host names; request index `cluster.nodes.len() + i` is `hosts[i]`.
    pub hosts: Vec<String>,
    /// Rack names as the hint gave them (without a leading `/`); request index
    /// `cluster.racks.len() + i` is `racks[i]`.
    pub racks: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::NodeSpec;
    use fairsim_core::Resource;

    fn node(name: &str, rack: &str) -> NodeSpec {
        NodeSpec {
            name: name.into(),
            rack: rack.into(),
            capacity: Resource::new(1024, 1),
        }
    }

    #[test]
    fn known_hosts_give_their_node_and_rack_unknown_ones_indices_past_the_cluster() {
        let specs = [node("a", "r1"), node("b", "r2"), node("c", "r2")];
        let cluster = Cluster::from_nodes(&specs, 1000);
        let mut r = HintResolver::new(&cluster);
        assert_eq!(
            r.resolve(&["/r2/c".into(), "a".into()]),
            (vec![0, 2], vec![0, 1])
        );
        // Unknown host in a known rack: its own index, the known rack.
        assert_eq!(r.resolve(&["/r2/zz".into()]), (vec![3], vec![1]));
        // The same unknown host again: the same index; an unknown rack gets one past the racks.
        assert_eq!(
            r.resolve(&["/r9/zz".into(), "/r9/yy".into()]),
            (vec![3, 4], vec![2])
        );
        // A bare unknown name is in default-rack, unknown here.
        assert_eq!(r.resolve(&["qq".into()]), (vec![5], vec![3]));
    }
}
