//! The decision variable of a plan: what it changes in the base scenario, and the grid of values it may take.
//!
//! Integer variables (node count, node size, a queue's min or max share in MB) are searched exactly over
//! `from, from + step, ..., to`; the one real variable (a queue's weight) over `from, from + resolution, ...`,
//! the last value clamped to `to`, so the answer is exact to the stated resolution.

use crate::results::fmt_f64;

/// Largest number of values a variable's grid may hold.
pub const MAX_GRID: u64 = 100_000_000;

/// What the variable is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableKind {
    /// `cluster.nodes`.
    Nodes,
    /// `cluster.node_memory_mb`.
    NodeMemoryMb,
    /// `cluster.node_vcores`.
    NodeVcores,
    /// A queue's `min_memory_mb` (minResources memory).
    MinShare,
    /// A queue's `max_memory_mb` (maxResources memory).
    MaxShare,
    /// A queue's `weight`.
    Weight,
}

impl VariableKind {
    /// Every kind with its name in plan files.
    pub const ALL: [(&'static str, VariableKind); 6] = [
        ("nodes", VariableKind::Nodes),
        ("node_memory_mb", VariableKind::NodeMemoryMb),
        ("node_vcores", VariableKind::NodeVcores),
        ("min_share", VariableKind::MinShare),
        ("max_share", VariableKind::MaxShare),
        ("weight", VariableKind::Weight),
    ];

    /// The kind named `name` in a plan file.
    pub fn parse(name: &str) -> Option<VariableKind> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    /// Its name in plan files.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(n, _)| *n)
            .expect("every kind is listed")
    }

    /// Whether the variable belongs to a queue (and the plan must name it).
    pub fn needs_queue(self) -> bool {
        matches!(
            self,
            VariableKind::MinShare | VariableKind::MaxShare | VariableKind::Weight
        )
    }

    /// Whether the variable takes real values (searched to a resolution) rather than integers.
    pub fn is_real(self) -> bool {
        self == VariableKind::Weight
    }

    /// The smallest value the scenario accepts.
    pub fn minimum(self) -> f64 {
        match self {
            VariableKind::Nodes | VariableKind::NodeMemoryMb | VariableKind::NodeVcores => 1.0,
            VariableKind::MinShare | VariableKind::MaxShare | VariableKind::Weight => 0.0,
        }
    }

    /// The key the scenario file uses for it (under `[cluster]` or under the queue's table).
    fn scenario_key(self) -> &'static str {
        match self {
            VariableKind::Nodes => "nodes",
            VariableKind::NodeMemoryMb => "node_memory_mb",
            VariableKind::NodeVcores => "node_vcores",
            VariableKind::MinShare => "min_memory_mb",
            VariableKind::MaxShare => "max_memory_mb",
            VariableKind::Weight => "weight",
        }
    }

    /// The unit of its values, for sentences and chart axes.
    pub fn unit(self) -> &'static str {
        match self {
            VariableKind::Nodes => "nodes",
            VariableKind::NodeMemoryMb | VariableKind::MinShare | VariableKind::MaxShare => "MB",
            VariableKind::NodeVcores => "vcores",
            VariableKind::Weight => "",
        }
    }
}

/// The values a variable may take, by index `0..len`, increasing.
#[derive(Debug, Clone, PartialEq)]
pub enum Grid {
    /// `from + i * step`.
    Int {
        /// First value.
        from: i64,
        /// Distance between values.
        step: i64,
        /// Number of values.
        len: u64,
    },
    /// `min(from + i * resolution, to)`.
    Real {
        /// First value.
        from: f64,
        /// Last value.
        to: f64,
        /// Distance between values.
        resolution: f64,
        /// Number of values.
        len: u64,
    },
}

impl Grid {
    /// Integers `from..=to` by `step`; `Err` with a message when empty, too large or badly stepped.
    pub fn int(from: i64, to: i64, step: i64) -> Result<Grid, String> {
        if step <= 0 {
            return Err(format!("step must be positive, got {step}"));
        }
        if to < from {
            return Err(format!("`to` ({to}) is below `from` ({from})"));
        }
        let len = ((to as i128 - from as i128) / step as i128 + 1) as u128;
        if len > MAX_GRID as u128 {
            return Err(format!(
                "the range holds {len} values; the limit is {MAX_GRID}"
            ));
        }
        Ok(Grid::Int {
            from,
            step,
            len: len as u64,
        })
    }

    /// Reals from `from` to `to` (both included) every `resolution`.
    pub fn real(from: f64, to: f64, resolution: f64) -> Result<Grid, String> {
        if !(from.is_finite() && to.is_finite()) {
            return Err("`from` and `to` must be finite".into());
        }
        if !(resolution.is_finite() && resolution > 0.0) {
            return Err(format!("resolution must be positive, got {resolution}"));
        }
        if to < from {
            return Err(format!("`to` ({to}) is below `from` ({from})"));
        }
        let too_many = || {
            Err(format!(
                "the range holds more than {MAX_GRID} values at this resolution"
            ))
        };
        // Counted in integers of the inputs' smallest decimal unit where they allow it (see `value_at`).
        if let Some((n, _)) = crate::sweep::decimal::grid_to(from, to, resolution) {
            if n > u128::from(MAX_GRID) {
                return too_many();
            }
            return Ok(Grid::Real {
                from,
                to,
                resolution,
                len: n as u64,
            });
        }
        // A small tolerance so that a `to` on the grid is not doubled by rounding.
        let steps = ((to - from) / resolution - 1e-9).ceil().max(0.0);
        if steps + 1.0 > MAX_GRID as f64 {
            return too_many();
        }
        Ok(Grid::Real {
            from,
            to,
            resolution,
            len: steps as u64 + 1,
        })
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        match self {
            Grid::Int { len, .. } | Grid::Real { len, .. } => *len,
        }
    }

    /// Whether the grid is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i` as the TOML value written into the scenario.
    pub fn value(&self, i: u64) -> toml::Value {
        match *self {
            Grid::Int { from, step, .. } => toml::Value::Integer(from + i as i64 * step),
            Grid::Real { .. } => toml::Value::Float(self.as_f64(i)),
        }
    }

    /// Value `i` as a number.
    pub fn as_f64(&self, i: u64) -> f64 {
        match *self {
            Grid::Int { from, step, .. } => (from + i as i64 * step) as f64,
            Grid::Real {
                from,
                to,
                resolution,
                ..
            } => match crate::sweep::decimal::grid_to(from, to, resolution) {
                // The decimal a person would write: 0.05 + 16 × 0.05 is 0.85, not 0.8500000000000001.
                Some((_, at)) => at(u128::from(i)),
                None => (from + i as f64 * resolution).min(to),
            },
        }
    }

    /// Value `i` as text (CSV cells, JSON, sentences).
    pub fn cell(&self, i: u64) -> String {
        match *self {
            Grid::Int { from, step, .. } => (from + i as i64 * step).to_string(),
            Grid::Real { .. } => fmt_f64(self.as_f64(i)),
        }
    }
}

/// The decision variable: its kind, its queue (full name) if any, where it lives in the scenario, its grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// What it is.
    pub kind: VariableKind,
    /// The queue's full name (`root.etl`), for queue variables.
    pub queue: Option<String>,
    /// The key of the queue's table under `[queues]` in the scenario (the base's own spelling when it has one).
    pub queue_key: Option<String>,
    /// The values it takes.
    pub grid: Grid,
    /// A `nodes` variable over a `[[cluster.nodes]]` list: how a count resizes it.
    pub node_list: Option<super::node_list::NodeList>,
}

impl Variable {
    /// The variable's name in CSV headers and JSON: `nodes`, or `min_memory_mb.root.etl` for a queue's.
    pub fn column(&self) -> String {
        match &self.queue {
            Some(q) => format!("{}.{q}", self.kind.scenario_key()),
            None => self.kind.scenario_key().to_string(),
        }
    }

    /// The path the variable changes, as a sweep would name it.
    pub fn path(&self) -> String {
        match &self.queue_key {
            Some(k) => format!("queues.{k}.{}", self.kind.scenario_key()),
            None => format!("cluster.{}", self.kind.scenario_key()),
        }
    }

    /// An answer with its unit, and for a node list grown by copies of a template, what was
    /// added: `4 nodes (2 added like h1 (4096 MB, 4 vcores, rack rack1))`.
    pub fn describe_answer(&self, i: u64) -> String {
        let plain = self.describe(i);
        let Some(list) = self.node_list.as_ref().filter(|l| l.adds_copies()) else {
            return plain;
        };
        let n = self.grid.as_f64(i) as usize;
        match n.checked_sub(list.base_count()) {
            Some(added) if added > 0 => {
                format!("{plain} ({added} added like {})", list.template_words())
            }
            _ => plain,
        }
    }

    /// A value with its unit, for sentences: `84 nodes`, `9217 MB`, `0.35`.
    pub fn describe(&self, i: u64) -> String {
        match (self.kind.unit(), self.grid.value(i)) {
            ("", _) => self.grid.cell(i),
            ("nodes", toml::Value::Integer(1)) => "1 node".into(),
            (unit, _) => format!("{} {unit}", self.grid.cell(i)),
        }
    }

    /// What the answer is the smallest of: `cluster`, `min share of root.etl`, ...
    pub fn subject(&self) -> String {
        let q = self.queue.as_deref().unwrap_or("");
        match self.kind {
            VariableKind::Nodes => "cluster".into(),
            VariableKind::NodeMemoryMb => "node memory".into(),
            VariableKind::NodeVcores => "node vcores".into(),
            VariableKind::MinShare => format!("min share of {q}"),
            VariableKind::MaxShare => format!("max share of {q}"),
            VariableKind::Weight => format!("weight of {q}"),
        }
    }

    /// The base scenario with value `i` written in; a queue's table is created if the base has none.
    /// A node count over a `[[cluster.nodes]]` list resizes it as [`super::node_list`] says.
    pub fn apply(&self, base: &toml::Value, i: u64) -> toml::Value {
        let mut scenario = base.clone();
        let value = self.grid.value(i);
        if let Some(list) = &self.node_list
            && let Some(cluster) = scenario.get_mut("cluster").and_then(|c| c.as_table_mut())
        {
            let n = usize::try_from(value.as_integer().unwrap_or(1)).unwrap_or(1);
            let n = n.max(list.smallest());
            cluster.insert("nodes".into(), toml::Value::Array(list.entries_for(n)));
            return scenario;
        }
        let root = scenario.as_table_mut().expect("a scenario is a TOML table");
        let table = match &self.queue_key {
            None => root
                .entry("cluster")
                .or_insert_with(|| toml::Value::Table(toml::Table::new())),
            Some(key) => root
                .entry("queues")
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                .as_table_mut()
                .expect("`queues` was checked to be a table")
                .entry(key.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new())),
        };
        table
            .as_table_mut()
            .expect("the variable's table was checked to be a table")
            .insert(self.kind.scenario_key().to_string(), value);
        scenario
    }
}

impl Variable {
    /// Refuses a cluster variable the base scenario's cluster form cannot take, naming the
    /// base's line (`base_file`, `base_text`) and the reason, rather than replacing the
    /// cluster or changing nothing: a node count over a nodes file, a node size over list
    /// entries that give their own.
    pub fn check_cluster_form(
        &self,
        base: &toml::Value,
        base_text: &str,
        base_file: &str,
    ) -> Result<(), String> {
        let lines = fairsim_sim::key_lines::KeyLines::new(base_text);
        let at = |key: &str| format!("{base_file}:{}", lines.line(key));
        let cluster = base.get("cluster");
        let list = cluster
            .and_then(|c| c.get("nodes"))
            .and_then(toml::Value::as_array);
        let from_file = cluster.is_some_and(|c| c.get("nodes_file").is_some());
        match self.kind {
            VariableKind::Nodes if from_file => Err(format!(
                "the base scenario's nodes come from `nodes_file` ({}): a nodes file fixes the \
                 nodes, so a `nodes` variable has nothing to change; give the cluster as \
                 `nodes = N` or one [[cluster.nodes]] entry with a `count`",
                at("cluster.nodes_file")
            )),
            VariableKind::Nodes => Ok(()),
            VariableKind::NodeMemoryMb | VariableKind::NodeVcores => {
                let own = match self.kind {
                    VariableKind::NodeMemoryMb => "memory_mb",
                    _ => "vcores",
                };
                let Some(entries) = list else {
                    return Ok(());
                };
                match entries.iter().position(|e| e.get(own).is_some()) {
                    None => Ok(()),
                    Some(k) => Err(format!(
                        "[[cluster.nodes]] entry {k} of the base scenario sets its own `{own}` \
                         ({}): `{}` is only the size of entries that give none, so the plan \
                         would not change that entry's nodes; remove `{own}` from the entries \
                         the variable should size",
                        at(&format!("cluster.nodes[{k}].{own}")),
                        self.kind.scenario_key()
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    /// Refuses a value the scenario read with it does not have: every initial node of
    /// `nodes` must have the variable's size, and there must be as many nodes as a `nodes`
    /// variable says (a nodes file's own sizes in hadoop-3.3 would make a node size variable
    /// change only some nodes).
    pub fn check_effect(
        &self,
        nodes: &[fairsim_sim::topology::NodeSpec],
        i: u64,
    ) -> Result<(), String> {
        let want = self.grid.as_f64(i);
        let (what, differs) = match self.kind {
            VariableKind::Nodes => (
                "nodes",
                (nodes.len() as f64 != want).then_some(nodes.len() as f64),
            ),
            VariableKind::NodeMemoryMb => (
                "MB of memory",
                nodes
                    .iter()
                    .map(|n| n.capacity.memory_mb as f64)
                    .find(|&m| m != want),
            ),
            VariableKind::NodeVcores => (
                "vcores",
                nodes
                    .iter()
                    .map(|n| n.capacity.vcores as f64)
                    .find(|&v| v != want),
            ),
            _ => return Ok(()),
        };
        match differs {
            None => Ok(()),
            Some(got) if self.kind == VariableKind::Nodes => Err(format!(
                "with {} = {} the cluster has {got} {what}: the variable does not set the node count",
                self.column(),
                self.grid.cell(i)
            )),
            Some(got) => Err(format!(
                "with {} = {} a node still has {got} {what} (its own size, from the nodes file \
                 or its entry): the variable would change only some nodes",
                self.column(),
                self.grid.cell(i)
            )),
        }
    }
}

/// The key under `[queues]` that names `full` (`root.etl`) in `base`: the base's own spelling (`etl` or
/// `root.etl`) when it has one, otherwise `full`.
pub fn queue_key(base: &toml::Value, full: &str) -> String {
    let short = full.strip_prefix("root.").unwrap_or(full);
    base.get("queues")
        .and_then(toml::Value::as_table)
        .and_then(|t| t.keys().find(|k| *k == full || *k == short).cloned())
        .unwrap_or_else(|| full.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_grids_include_both_ends() {
        let g = Grid::int(4, 64, 1).unwrap();
        assert_eq!(
            (g.len(), g.cell(0), g.cell(60)),
            (61, "4".into(), "64".into())
        );
        let g = Grid::int(0, 10, 4).unwrap();
        assert_eq!((g.len(), g.cell(2)), (3, "8".into()));
        assert!(Grid::int(5, 4, 1).is_err());
        assert!(Grid::int(0, 4, 0).is_err());
        assert!(Grid::int(0, i64::MAX, 1).is_err());
    }

    #[test]
    fn real_grids_end_at_to_exactly() {
        let g = Grid::real(0.1, 1.0, 0.1).unwrap();
        assert_eq!(g.len(), 10);
        assert_eq!(g.as_f64(9), 1.0);
        let g = Grid::real(0.0, 1.0, 0.3).unwrap();
        assert_eq!(g.len(), 5);
        // Stepped in floats, value 3 was 0.8999999999999999.
        assert_eq!((g.as_f64(3), g.as_f64(4)), (0.9, 1.0));
        let g = Grid::real(0.05, 1.0, 0.05).unwrap();
        assert_eq!((g.len(), g.cell(16)), (20, "0.85".to_string()));
        assert!(Grid::real(0.0, 1.0, 0.0).is_err());
        assert!(Grid::real(0.0, f64::INFINITY, 0.1).is_err());
    }

    fn nodes(kind: VariableKind) -> Variable {
        Variable {
            kind,
            queue: None,
            queue_key: None,
            grid: Grid::int(2, 8, 2).unwrap(),
            node_list: None,
        }
    }

    #[test]
    fn a_node_count_resizes_a_list_and_refuses_a_nodes_file() {
        let text = "[cluster]\n[[cluster.nodes]]\ncount = 4\nmemory_mb = 16384\nvcores = 8\n";
        let base: toml::Value = toml::from_str(text).unwrap();
        let mut v = nodes(VariableKind::Nodes);
        v.node_list =
            Some(super::super::node_list::NodeList::new(&base["cluster"], &[], None).unwrap());
        assert_eq!(v.check_cluster_form(&base, text, "s.toml"), Ok(()));
        let s = v.apply(&base, 1);
        let entry = &s["cluster"]["nodes"][0];
        assert_eq!(entry["count"].as_integer(), Some(4));
        assert_eq!(entry["memory_mb"].as_integer(), Some(16384));
        assert!(s["cluster"].get("node_memory_mb").is_none());
        assert_eq!(v.describe_answer(3), "8 nodes");

        let text = "[cluster]\n[[cluster.nodes]]\nname = \"h\"\nmemory_mb = 2048\nvcores = 2\n";
        let base: toml::Value = toml::from_str(text).unwrap();
        v.node_list =
            Some(super::super::node_list::NodeList::new(&base["cluster"], &[], None).unwrap());
        assert_eq!(v.check_cluster_form(&base, text, "s.toml"), Ok(()));
        let s = v.apply(&base, 0);
        let list = s["cluster"]["nodes"].as_array().unwrap();
        assert_eq!((list.len(), list[1]["count"].as_integer()), (2, Some(1)));
        assert_eq!(
            v.describe_answer(0),
            "2 nodes (1 added like h (2048 MB, 2 vcores, rack default-rack))"
        );
        let text = "[cluster]\nnodes_file = \"n.json\"\n";
        let base: toml::Value = toml::from_str(text).unwrap();
        let e = v.check_cluster_form(&base, text, "s.toml").unwrap_err();
        assert!(e.contains("`nodes_file` (s.toml:2)"), "{e}");
    }

    #[test]
    fn a_node_size_refuses_entries_that_give_their_own() {
        let text = "[cluster]\nnode_memory_mb = 8192\n[[cluster.nodes]]\ncount = 2\n\
                    [[cluster.nodes]]\ncount = 2\nmemory_mb = 16384\n";
        let base: toml::Value = toml::from_str(text).unwrap();
        let e = nodes(VariableKind::NodeMemoryMb)
            .check_cluster_form(&base, text, "s.toml")
            .unwrap_err();
        assert!(
            e.contains("entry 1 of the base scenario sets its own `memory_mb` (s.toml:7)"),
            "{e}"
        );
        assert_eq!(
            nodes(VariableKind::NodeVcores).check_cluster_form(&base, text, "s.toml"),
            Ok(())
        );
    }

    #[test]
    fn queue_variables_use_the_base_spelling_or_create_the_table() {
        let base: toml::Value = toml::from_str("[queues.A]\nweight = 0.2\n").unwrap();
        assert_eq!(queue_key(&base, "root.A"), "A");
        assert_eq!(queue_key(&base, "root.B"), "root.B");
        let v = Variable {
            kind: VariableKind::MinShare,
            queue: Some("root.B".into()),
            queue_key: Some(queue_key(&base, "root.B")),
            grid: Grid::int(0, 4096, 1024).unwrap(),
            node_list: None,
        };
        let s = v.apply(&base, 2);
        assert_eq!(
            s["queues"]["root.B"]["min_memory_mb"].as_integer(),
            Some(2048)
        );
        assert_eq!(s["queues"]["A"]["weight"].as_float(), Some(0.2));
        assert_eq!(v.column(), "min_memory_mb.root.B");
    }
}
