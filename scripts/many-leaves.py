#!/usr/bin/env python3
"""Writes scenarios/many-leaves/: a 20-leaf and a 200-leaf cluster with long dotted queue
names, some leaves idle, each also as a run cut before its workload ends and under the
Capacity Scheduler. Deterministic: rerunning it rewrites the same files."""
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "scenarios", "many-leaves")

DEPTS = ["analytics", "engineering", "finance_reporting", "marketing_insights", "platform"]
TEAMS = ["nightly_ingest_pipeline", "interactive_adhoc", "ml_feature_store", "streaming_backfill"]
PIPES = ["clickstream", "payments", "inventory", "recommendations", "fraud_scoring",
         "customer_360", "ledger_close", "search_logs", "ad_impressions", "supply_chain"]


def leaves(n):
    """n leaf paths below root, three levels deep, the leaf's short name unique (the
    Capacity Scheduler needs that) and long, sharing long prefixes with its siblings."""
    out = []
    k = 0
    while len(out) < n:
        d = DEPTS[k % len(DEPTS)]
        t = TEAMS[(k // len(DEPTS)) % len(TEAMS)]
        p = PIPES[(k // (len(DEPTS) * len(TEAMS))) % len(PIPES)]
        r = k // (len(DEPTS) * len(TEAMS) * len(PIPES))
        leaf = f"{p}_{d[:3]}_{t[:5]}" + (f"_{r}" if r else "")
        out.append((d, t, leaf))
        k += 1
    return out


def idle(i):
    # Every fifth leaf gets no apps.
    return i % 5 == 4


def fair_xml(ls, title):
    tree = {}
    for d, t, leaf in ls:
        tree.setdefault(d, {}).setdefault(t, []).append(leaf)
    lines = ['<?xml version="1.0"?>', f"<!-- {title} -->", "<allocations>"]
    for i, (d, teams) in enumerate(tree.items()):
        lines.append(f'  <queue name="{d}">')
        lines.append(f"    <weight>{1 + i % 3}</weight>")
        for t, leafs in teams.items():
            lines.append(f'    <queue name="{t}">')
            for j, leaf in enumerate(leafs):
                lines.append(f'      <queue name="{leaf}">')
                lines.append(f"        <weight>{1 + j % 2}</weight>")
                lines.append("      </queue>")
            lines.append("    </queue>")
        lines.append("  </queue>")
    lines.append("</allocations>")
    return "\n".join(lines) + "\n"


def split(total, n):
    """n integer percentages summing to total."""
    base = [total // n] * n
    for i in range(total - sum(base)):
        base[i] += 1
    return base


def capacity_xml(ls, title):
    tree = {}
    for d, t, leaf in ls:
        tree.setdefault(d, {}).setdefault(t, []).append(leaf)
    props = []

    def prop(name, value):
        props.append(f"  <property><name>yarn.scheduler.capacity.{name}</name><value>{value}</value></property>")

    prop("root.queues", ",".join(tree))
    for d, dc in zip(tree, split(100, len(tree))):
        prop(f"root.{d}.capacity", dc)
        prop(f"root.{d}.maximum-capacity", 100)
        prop(f"root.{d}.queues", ",".join(tree[d]))
        for t, tc in zip(tree[d], split(100, len(tree[d]))):
            prop(f"root.{d}.{t}.capacity", tc)
            prop(f"root.{d}.{t}.queues", ",".join(tree[d][t]))
            for leaf, lc in zip(tree[d][t], split(100, len(tree[d][t]))):
                prop(f"root.{d}.{t}.{leaf}.capacity", lc)
                prop(f"root.{d}.{t}.{leaf}.maximum-capacity", 100)
                prop(f"root.{d}.{t}.{leaf}.user-limit-factor", 10)
    return "\n".join(['<?xml version="1.0"?>', f"<!-- {title} -->", "<configuration>"] + props + ["</configuration>"]) + "\n"


def scenario(name, comment, nodes, alloc, ls, apps, gap_ms, end_ms, sample_ms, preemption):
    # The Capacity Scheduler of Hadoop 2.7 takes a leaf's short name at submission.
    capacity = alloc.endswith("-capacity.xml")
    out = [f"# {c}" if c else "#" for c in comment]
    out += [f'name = "{name}"', f"end_ms = {end_ms}", "",
            "[cluster]", f"nodes = {nodes}", "racks = 4", "node_memory_mb = 16384", "node_vcores = 16", "",
            "[scheduler]", 'semantics = "hadoop-2.7"']
    if not capacity:
        out.append("assignmultiple = true")
    if preemption:
        out.append("preemption = true")
    out += ["", "[allocation]", f'file = "{alloc}"', ""]
    for i, (d, t, leaf) in enumerate(ls):
        if idle(i):
            continue
        # Three shapes in turn: large slow jobs, small quick ones, and a long tail.
        shape = i % 3
        tasks = ["{ dist = \"constant\", value = 12 }", "{ dist = \"constant\", value = 3 }",
                 "{ dist = \"lognormal\", median = 4, sigma = 1.0, max = 40 }"][shape]
        dur = ["{ dist = \"lognormal\", median = 120000, sigma = 0.5 }",
               "{ dist = \"lognormal\", median = 20000, sigma = 0.5 }",
               "{ dist = \"pareto\", scale = 15000, shape = 1.5, max = 900000 }"][shape]
        out += ["[[workload.synthetic.queues]]", f'queue = "{leaf}"' if capacity else f'queue = "root.{d}.{t}.{leaf}"',
                f"apps = {apps}", f"mean_interarrival_ms = {gap_ms + 7000 * (i % 4)}",
                f"tasks = {tasks}", f"duration_ms = {dur}", f"container_mb = {2048 if shape == 0 else 1024}", ""]
    out += ["[outputs]", f"sample_interval_ms = {sample_ms}"]
    return "\n".join(out) + "\n"


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def main():
    os.makedirs(OUT, exist_ok=True)
    for n, nodes, apps, gap in [(20, 12, 8, 40000), (200, 60, 3, 90000)]:
        ls = leaves(n)
        stem = f"leaves-{n}"
        write(f"{stem}.xml", fair_xml(ls, f"{n} leaf queues three levels below root, weights 1 to 3 and 1 to 2."))
        n_idle = sum(1 for i in range(n) if idle(i))
        head = [f"{n} leaf queues with long dotted names on {nodes} nodes of 16 GB; {n_idle} leaves never get an app",
                "(every fifth). Written by scripts/many-leaves.py; charts of real clusters are tested on it."]
        write(f"{stem}.toml", scenario(stem, head + ["Forty minutes: every app finishes."],
                                       nodes, f"{stem}.xml", ls, apps, gap, 2400000, 30000, False))
        write(f"{stem}-cut.toml", scenario(f"{stem}-cut", head + ["Cut after 10 minutes, long before the workload ends: apps still wait or run."],
                                           nodes, f"{stem}.xml", ls, apps, gap, 600000, 30000, False))
        write(f"{stem}-capacity.xml", capacity_xml(ls, f"The same {n} leaves for the Capacity Scheduler, capacity split evenly at each level."))
        write(f"{stem}-capacity.toml", scenario(f"{stem}-capacity", head + ["The same workload under the Capacity Scheduler."],
                                                nodes, f"{stem}-capacity.xml", ls, apps, gap, 2400000, 30000, False))


main()
