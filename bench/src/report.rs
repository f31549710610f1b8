//! The benchmark report: a Markdown table, a merged JSON file and two SVG charts.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

fn load(path: &str) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

fn results(doc: &Value) -> Vec<Value> {
    doc["results"].as_array().cloned().unwrap_or_default()
}

/// The median of the record matching every `(key, value)` pair.
fn find(records: &[Value], pairs: &[(&str, Value)]) -> Option<f64> {
    records.iter().find(|r| pairs.iter().all(|(k, v)| &r[*k] == v)).and_then(|r| r["median_ms"].as_f64())
}

fn ms(value: Option<f64>) -> String {
    match value {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 1.0 => format!("{v:.2}"),
        Some(v) => format!("{v:.4}"),
        None => "–".to_owned(),
    }
}

/// `numerator / denominator` as `1.2x` (one decimal; [`times`] gives two), `–` if either is missing.
fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> String {
    quotient(numerator, denominator, 1)
}

fn quotient(numerator: Option<f64>, denominator: Option<f64>, decimals: usize) -> String {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => format!("{:.*}x", decimals, n / d),
        _ => "–".to_owned(),
    }
}

const PEER_BACKENDS: [&str; 3] = ["uds", "shm", "wasm"];

fn peer_fastest(peer: &[Value], pairs: &[(&str, Value)]) -> Option<f64> {
    PEER_BACKENDS
        .iter()
        .filter_map(|b| {
            let mut with = pairs.to_vec();
            with.push(("backend", json!(b)));
            find(peer, &with)
        })
        .min_by(f64::total_cmp)
}

fn markdown(ours: &Value, peer: Option<&Value>) -> String {
    let o = results(ours);
    let p = peer.map(results).unwrap_or_default();
    let threads = ours["machine"]["cores"].as_u64().unwrap_or(1);
    let mut md = String::new();
    let _ = writeln!(md, "# txfx benchmarks\n");
    let _ = writeln!(
        md,
        "Machine: {} ({}{} cores; products: {}; batches: {}). txfx {} ({} build), {} samples after {} warm-ups, medians in ms per complete operation.{}\n",
        ours["machine"]["cpu"].as_str().unwrap_or("?"),
        match (ours["machine"]["cpu_family"].as_str(), ours["machine"]["cpu_model"].as_str()) {
            (Some(family), Some(model)) => format!("family {family}, model {model}; "),
            _ => String::new(),
        },
        threads,
        ours["machine"]["arithmetic"].as_str().unwrap_or("?"),
        ours["machine"]["batch_arithmetic"].as_str().unwrap_or("?"),
        ours["version"].as_str().unwrap_or("?"),
        ours["profile"].as_str().unwrap_or("?"),
        ours["samples"],
        ours["warmups"],
        match peer {
            Some(doc) => format!(
                " Reference: `@aztec/foundation` {} + `@aztec/bb.js` {} on Node {} (uds = async native socket, shm = sync native shared memory, wasm = sync WASM).",
                doc["versions"]["foundation"].as_str().unwrap_or("?"),
                doc["versions"]["bb.js"].as_str().unwrap_or("?"),
                doc["versions"]["node"].as_str().unwrap_or("?")
            ),
            None => " Reference not measured in this run (`cargo xtask bench --peer`).".to_owned(),
        }
    );
    let peer_header = |md: &mut String| {
        if peer.is_some() {
            md.push_str(" ref uds | ref shm | ref wasm | fastest ref / native |");
        }
        md.push('\n');
    };
    let peer_cells = |md: &mut String, pairs: &[(&str, Value)], native: Option<f64>| {
        if peer.is_some() {
            for b in PEER_BACKENDS {
                let mut with = pairs.to_vec();
                with.push(("backend", json!(b)));
                let _ = write!(md, " {} |", ms(find(&p, &with)));
            }
            let _ = write!(md, " {} |", ratio(peer_fastest(&p, pairs), native));
        }
        md.push('\n');
    };

    md.push_str("## 1. Complete commitment (all leaves from full effects, then the root)\n\n");
    md.push_str("| profile | txs | native | wasm |");
    peer_header(&mut md);
    md.push_str(if peer.is_some() { "|---|---|---|---|---|---|---|---|\n" } else { "|---|---|---|---|\n" });
    for profile in ["sparse", "small", "log-heavy"] {
        for n in [1, 3, 16, 64] {
            let pairs = [("workload", json!("1-commitment")), ("name", json!(profile)), ("n", json!(n))];
            let native = find(
                &o,
                &[pairs[0].clone(), pairs[1].clone(), pairs[2].clone(), ("backend", json!("native"))],
            );
            let wasm =
                find(&o, &[pairs[0].clone(), pairs[1].clone(), pairs[2].clone(), ("backend", json!("wasm"))]);
            let _ = write!(md, "| {profile} | {n} | {} | {} |", ms(native), ms(wasm));
            peer_cells(&mut md, &pairs, native);
        }
    }

    md.push_str(
        "\n## 2. 64 precomputed leaves\n\n| operation | native | native, pinned helpers (opt-in) | wasm |",
    );
    peer_header(&mut md);
    md.push_str(if peer.is_some() { "|---|---|---|---|---|---|---|---|\n" } else { "|---|---|---|---|\n" });
    for name in [
        "tree",
        "witness",
        "verify",
        "tree-after-idle",
        "witness-after-idle",
        "verify-after-idle",
        "tree-1-thread",
        "tree-1-thread-after-idle",
    ] {
        let pairs = [("workload", json!("2-leaves64")), ("name", json!(name))];
        let native = find(&o, &[pairs[0].clone(), pairs[1].clone(), ("backend", json!("native"))]);
        let pinned = find(&o, &[pairs[0].clone(), pairs[1].clone(), ("backend", json!("native-pinned"))]);
        let wasm = find(&o, &[pairs[0].clone(), pairs[1].clone(), ("backend", json!("wasm"))]);
        if native.is_none() && wasm.is_none() {
            continue;
        }
        let _ = write!(md, "| {name} | {} | {} | {} |", ms(native), ms(pinned), ms(wasm));
        peer_cells(&mut md, &pairs, native);
    }

    md.push_str("\n## 3. Tree-size sweep\n\n");
    let _ = writeln!(
        md,
        "| leaves | root native 1 thread | root native {threads} threads | speed-up | all witnesses native 1 thread | all witnesses native {threads} threads | speed-up | root wasm | all witnesses wasm |"
    );
    md.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for n in [1, 3, 16, 64, 256, 1024, 4096, 65536] {
        let get = |name: &str, backend: &str, t: u64| {
            find(
                &o,
                &[
                    ("workload", json!("3-sweep")),
                    ("name", json!(name)),
                    ("backend", json!(backend)),
                    ("n", json!(n)),
                    ("threads", json!(t)),
                ],
            )
        };
        let (r1, rn) = (get("root", "native", 1), get("root", "native", threads));
        let (w1, wn) = (get("all-witnesses", "native", 1), get("all-witnesses", "native", threads));
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {} | {} | {} | {} | {} | {} |",
            ms(r1),
            ms(rn),
            ratio(r1, rn),
            ms(w1),
            ms(wn),
            ratio(w1, wn),
            ms(get("root", "wasm", 1)),
            ms(get("all-witnesses", "wasm", 1))
        );
    }

    md.push_str(
        "\n## 4. Responsiveness (4 concurrent 64-tx small-category loops, 2 tokio workers, 1 ms probe)\n\n",
    );
    md.push_str("| backend | mode | complete ops/s | probe delay p50 ms | p95 ms | max ms |\n|---|---|---|---|---|---|\n");
    for r in o.iter().filter(|r| r["workload"] == "4-responsiveness") {
        let _ = writeln!(
            md,
            "| {} | {} | {:.1} | {:.3} | {:.3} | {:.3} |",
            r["backend"].as_str().unwrap_or("?"),
            r["name"].as_str().unwrap_or("?"),
            r["ops_per_s"].as_f64().unwrap_or(f64::NAN),
            r["probe_p50_ms"].as_f64().unwrap_or(f64::NAN),
            r["probe_p95_ms"].as_f64().unwrap_or(f64::NAN),
            r["probe_max_ms"].as_f64().unwrap_or(f64::NAN)
        );
    }
    md.push_str("\n`design`: leaf and category batches offloaded (both backends: to the process's one background pool, one thread per core at nice 10), tree nodes inline, eight pairs between yields. `inline`: everything hashed on the executor threads. `idle`: the probe alone, the floor of the measurement. The probe delay runs from the moment a tick is due (a timer thread, 1 ms apart) until the probe task runs; tokio's own millisecond-granular timer would add up to 1 ms of rounding to every tick.\n");
    md.push_str("\n`tree-1-thread`: the same tree on one thread, so `tree-1-thread-after-idle` over `tree-1-thread` is what the idle gap costs the hashing itself (caches, clock), whatever the helper threads do.\n");
    per_hash_section(&mut md, &o, &p);
    if peer.is_some() {
        goals_section(&mut md, ours, &o, &p);
    }
    md.push_str("\nCharts: `sweep.svg` (tree-size sweep), `profiles.svg` (commitment per profile), `hash.svg` (per-hash cost).\n");
    md
}

/// The rows of workload 5: label, backend, name; the reference's rows are its own backends.
const HASH_ROWS: [(&str, &str, &str); 9] = [
    ("txfx native, one permutation per call", "native", "single"),
    ("txfx native, 64-state batch on one thread", "native", "batch-64"),
    ("txfx permutation on varied inputs (the core function)", "native", "core-chained"),
    (
        "txfx permutation on the scalar product alone (what CPUs without IFMA run), varied inputs",
        "native",
        "scalar-chained",
    ),
    ("txfx native, one tree node per call", "native", "node"),
    ("Noir `bn254_blackbox_solver` 1.0 permutation", "bn254_blackbox_solver", "single"),
    ("txfx WASM, one permutation per call", "wasm", "single"),
    ("txfx WASM, 64-state batch (the guest's own permutation)", "wasm", "batch-64"),
    ("txfx WASM, one tree node per call", "wasm", "node"),
];

fn hash_us(records: &[Value], backend: &str, name: &str) -> Option<f64> {
    find(records, &[("workload", json!("5-hash")), ("name", json!(name)), ("backend", json!(backend))])
        .map(|ms| ms * 1e3)
}

fn us(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{v:.2}"))
}

/// `numerator / denominator` with two decimals, for ratios near 1.
fn times(numerator: Option<f64>, denominator: Option<f64>) -> String {
    quotient(numerator, denominator, 2)
}

/// Section 5: the per-hash table and the ratios the goals are checked with.
fn per_hash_section(md: &mut String, o: &[Value], p: &[Value]) {
    if !o.iter().any(|r| r["workload"] == "5-hash") {
        return;
    }
    md.push_str("\n## 5. Per-hash cost (one thread, one call at a time unless batched)\n\n| what | µs per permutation |\n|---|---|\n");
    for (label, backend, name) in HASH_ROWS {
        let _ = writeln!(md, "| {label} | {} |", us(hash_us(o, backend, name)));
    }
    for backend in PEER_BACKENDS {
        for (name, what) in [("single", "`poseidon2Permutation`"), ("node", "tree node hash")] {
            if let Some(v) = hash_us(p, backend, name) {
                let _ = writeln!(md, "| reference {backend}, {what} per call | {v:.2} |");
            }
        }
    }
    let native = |name| hash_us(o, "native", name);
    let wasm = |name| hash_us(o, "wasm", name);
    let solver = hash_us(o, "bn254_blackbox_solver", "single");
    let fastest_ref_node = PEER_BACKENDS.iter().filter_map(|b| hash_us(p, b, "node")).min_by(f64::total_cmp);
    let _ = writeln!(
        md,
        "\n- Permutation against Noir's, same run: {} (one call), {} (varied inputs).",
        times(solver, native("single")),
        times(solver, native("core-chained"))
    );
    let _ = writeln!(
        md,
        "- The scalar product alone against Noir's, same run: {} (varied inputs).",
        times(solver, native("scalar-chained"))
    );
    let _ = writeln!(
        md,
        "- 64-state batch against one permutation per call: {} per permutation; against the scalar product alone: {}.",
        times(native("single"), native("batch-64")),
        times(native("scalar-chained"), native("batch-64"))
    );
    let _ = writeln!(
        md,
        "- A tree node over one permutation: native {}, WASM {}.",
        times(native("node"), native("single")),
        times(wasm("node"), wasm("single"))
    );
    let _ = writeln!(
        md,
        "- One WASM call over the guest's own permutation: {}.",
        times(wasm("single"), wasm("batch-64"))
    );
    if fastest_ref_node.is_some() {
        let _ = writeln!(
            md,
            "- Tree node against the reference: native {} (fastest reference backend), WASM {} (reference WASM).",
            times(fastest_ref_node, native("node")),
            times(hash_us(p, "wasm", "node"), wasm("node"))
        );
    }
}

/// The native goals of issue 30 (the engine's second round), each with its value from this run:
/// the bounds for CPUs with AVX-512 IFMA where this process took the IFMA batch path, the others'
/// otherwise. The JavaScript goals are `cargo xtask bench --js`'s.
fn goals_section(md: &mut String, ours: &Value, o: &[Value], p: &[Value]) {
    let ifma = ours["machine"]["batch_arithmetic"].as_str().is_some_and(|b| b.starts_with("ifma"));
    let native = |name| hash_us(o, "native", name);
    let solver = hash_us(o, "bn254_blackbox_solver", "single");
    let leaves = |name: &str| {
        let pairs = [("workload", json!("2-leaves64")), ("name", json!(name))];
        let ours = find(o, &[pairs[0].clone(), pairs[1].clone(), ("backend", json!("native"))]);
        peer_fastest(p, &pairs).zip(ours).map(|(reference, ours)| reference / ours)
    };
    let log_heavy = [1, 3, 16, 64]
        .into_iter()
        .map(|n| {
            let pairs = [("workload", json!("1-commitment")), ("name", json!("log-heavy")), ("n", json!(n))];
            let ours = find(
                o,
                &[pairs[0].clone(), pairs[1].clone(), pairs[2].clone(), ("backend", json!("native"))],
            );
            peer_fastest(p, &pairs).zip(ours).map(|(reference, ours)| reference / ours)
        })
        .collect::<Option<Vec<f64>>>()
        .and_then(|ratios| ratios.into_iter().min_by(f64::total_cmp));
    let scalar = [native("single"), native("core-chained")]
        .into_iter()
        .map(|ours| solver.zip(ours).map(|(solver, ours)| solver / ours))
        .collect::<Option<Vec<f64>>>()
        .and_then(|ratios| ratios.into_iter().min_by(f64::total_cmp));
    // The batch against the scalar permutation the issue names: the scalar product alone (on an
    // IFMA CPU the single permutation itself uses the vector units, `single` is faster still).
    let batch = native("scalar-chained").zip(native("batch-64")).map(|(one, batch)| one / batch);
    let scalar_only = solver.zip(native("scalar-chained")).map(|(solver, ours)| solver / ours);
    let mut rows: Vec<(String, Option<f64>, f64)> = vec![
        (
            "single permutation ≥ 1.35x Noir's crate (the lesser of one call and varied inputs)".to_owned(),
            scalar,
            1.35,
        ),
        ("the same on the scalar product alone (CPUs without IFMA)".to_owned(), scalar_only, 1.35),
    ];
    if ifma {
        rows.extend([
            ("AVX-512 IFMA: batch throughput ≥ 4x the scalar product's permutation".to_owned(), batch, 4.0),
            ("AVX-512 IFMA: 64-leaf tree ≥ 10x the fastest bb.js".to_owned(), leaves("tree"), 10.0),
            ("AVX-512 IFMA: membership construction ≥ 10x".to_owned(), leaves("witness"), 10.0),
            ("AVX-512 IFMA: every log-heavy commitment ≥ 6x (the least)".to_owned(), log_heavy, 6.0),
            ("AVX-512 IFMA: verification ≥ 2.5x".to_owned(), leaves("verify"), 2.5),
        ]);
    } else {
        rows.extend([
            ("without IFMA: 64-leaf tree ≥ 5x the fastest bb.js".to_owned(), leaves("tree"), 5.0),
            ("without IFMA: verification ≥ 2.5x".to_owned(), leaves("verify"), 2.5),
        ]);
    }
    md.push_str("\n## Goals (issue 30), from this run\n\n| goal | measured |  |\n|---|---|---|\n");
    for (goal, measured, bound) in rows {
        let (value, verdict) = match measured {
            Some(x) => (format!("{x:.2}x"), if x >= bound { "met" } else { "**missed**" }),
            None => ("–".to_owned(), "not measured"),
        };
        let _ = writeln!(md, "| {goal} | {value} | {verdict} |");
    }
    let _ = writeln!(
        md,
        "\nThis run took the {} goals: the batch path here is {}.",
        if ifma { "AVX-512 IFMA" } else { "without-IFMA" },
        ours["machine"]["batch_arithmetic"].as_str().unwrap_or("?")
    );
}

/// The opening of a chart with a logarithmic millisecond axis: the `w` × `h` canvas, its title at
/// `left`, and one grid line with its label per decade in `decades`, placed by `y` (ms to pixels).
fn log_scale_frame(
    (w, h, left): (f64, f64, f64),
    font_size: u32,
    title: &str,
    decades: std::ops::RangeInclusive<i32>,
    y: impl Fn(f64) -> f64,
) -> String {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"{font_size}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{left}\" y=\"16\" font-size=\"14\">{title}</text>\n"
    );
    for decade in decades {
        let yy = y(10f64.powi(decade));
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"4\" y=\"{:.1}\">1e{decade} ms</text>",
            w - 20.0,
            yy + 4.0
        );
    }
    svg
}

/// Horizontal bars (linear scale) of workload 5: µs per permutation.
fn hash_svg(ours: &Value, peer: Option<&Value>) -> String {
    let o = results(ours);
    let p = peer.map(results).unwrap_or_default();
    let mut bars: Vec<(String, Option<f64>, &str)> = vec![
        ("txfx native, single".to_owned(), hash_us(&o, "native", "single"), "#2ca02c"),
        ("txfx native, batched (64 states)".to_owned(), hash_us(&o, "native", "batch-64"), "#2ca02c"),
        ("Noir bn254_blackbox_solver".to_owned(), hash_us(&o, "bn254_blackbox_solver", "single"), "#bcbd22"),
        ("txfx WASM guest (64-state batch)".to_owned(), hash_us(&o, "wasm", "batch-64"), "#d62728"),
        ("txfx WASM, single call".to_owned(), hash_us(&o, "wasm", "single"), "#d62728"),
    ];
    for (backend, label) in
        [("shm", "bb.js native (shm)"), ("uds", "bb.js native (uds, async)"), ("wasm", "bb.js WASM")]
    {
        bars.push((format!("{label}, permutation"), hash_us(&p, backend, "single"), "#7f7f7f"));
        bars.push((format!("{label}, tree node"), hash_us(&p, backend, "node"), "#7f7f7f"));
    }
    bars.retain(|(_, v, _)| v.is_some());
    let max = bars.iter().filter_map(|(_, v, _)| *v).fold(1.0, f64::max);
    let (w, left, row) = (760.0, 260.0, 22.0);
    let h = 50.0 + row * bars.len() as f64;
    let scale = (w - left - 80.0) / max;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"18\" font-size=\"14\">Per-hash cost: median µs per permutation, one thread</text>\n"
    );
    for (i, (label, value, color)) in bars.iter().enumerate() {
        let Some(v) = value else { continue };
        let y = 34.0 + row * i as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text><rect x=\"{left}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{}\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\">{v:.1}</text>",
            left - 8.0,
            y + 13.0,
            v * scale,
            row - 6.0,
            left + v * scale + 6.0,
            y + 13.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A log-log line chart of the sweep.
fn sweep_svg(ours: &Value) -> String {
    let o = results(ours);
    let threads = ours["machine"]["cores"].as_u64().unwrap_or(1);
    let series = [
        ("root, native, 1 thread", "native", "root", 1, "#1f77b4"),
        ("root, native, all threads", "native", "root", threads, "#2ca02c"),
        ("all witnesses, native, all threads", "native", "all-witnesses", threads, "#9467bd"),
        ("root, wasm", "wasm", "root", 1, "#d62728"),
    ];
    let sizes = [1u64, 3, 16, 64, 256, 1024, 4096, 65536];
    let (w, h, left, bottom) = (720.0, 420.0, 70.0, 50.0);
    let x = |n: u64| left + (n as f64).log2() / 16.0 * (w - left - 20.0);
    let y = |ms: f64| h - bottom - (ms.max(1e-4).log10() + 4.0) / 8.0 * (h - bottom - 20.0);
    let mut svg =
        log_scale_frame((w, h, left), 12, "Tree-size sweep: median ms per operation (log-log)", -4..=4, y);
    for n in sizes {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{n}</text>",
            x(n),
            h - bottom + 18.0
        );
    }
    let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">leaves</text>", w / 2.0, h - 10.0);
    for (i, (label, backend, name, t, color)) in series.iter().enumerate() {
        let points: Vec<String> = sizes
            .iter()
            .filter_map(|&n| {
                let pairs = [
                    ("workload", json!("3-sweep")),
                    ("name", json!(name)),
                    ("backend", json!(backend)),
                    ("n", json!(n)),
                    ("threads", json!(t)),
                ];
                find(&o, &pairs).map(|ms| format!("{:.1},{:.1}", x(n), y(ms)))
            })
            .collect();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>",
            points.join(" ")
        );
        let ly = 40.0 + 16.0 * i as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"{color}\"/><text x=\"{}\" y=\"{}\">{label}</text>",
            left + 10.0,
            ly - 4.0,
            left + 28.0,
            ly
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Grouped bars (log scale) of the complete commitment per profile and size.
fn profiles_svg(ours: &Value, peer: Option<&Value>) -> String {
    let o = results(ours);
    let p = peer.map(results).unwrap_or_default();
    let mut bars: Vec<(&str, &str)> = vec![("native", "#2ca02c"), ("wasm", "#d62728")];
    if peer.is_some() {
        bars.push(("reference (fastest)", "#7f7f7f"));
    }
    let groups: Vec<(&str, u64)> =
        ["sparse", "small", "log-heavy"].iter().flat_map(|p| [1u64, 3, 16, 64].map(|n| (*p, n))).collect();
    let (w, h, left, bottom) = (900.0, 420.0, 70.0, 60.0);
    let group_w = (w - left - 20.0) / groups.len() as f64;
    let y = |ms: f64| h - bottom - (ms.max(1e-3).log10() + 3.0) / 7.0 * (h - bottom - 30.0);
    let mut svg = log_scale_frame((w, h, left), 11, "Complete commitment: median ms (log scale)", -3..=4, y);
    for (g, (profile, n)) in groups.iter().enumerate() {
        let gx = left + g as f64 * group_w;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{profile}</text><text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{n} tx</text>",
            gx + group_w / 2.0,
            h - bottom + 16.0,
            gx + group_w / 2.0,
            h - bottom + 30.0
        );
        for (b, (label, color)) in bars.iter().enumerate() {
            let pairs = [("workload", json!("1-commitment")), ("name", json!(profile)), ("n", json!(n))];
            let value = if *label == "reference (fastest)" {
                peer_fastest(&p, &pairs)
            } else {
                find(&o, &[pairs[0].clone(), pairs[1].clone(), pairs[2].clone(), ("backend", json!(label))])
            };
            if let Some(v) = value {
                let bw = group_w / (bars.len() as f64 + 1.0);
                let top = y(v);
                let _ = writeln!(
                    svg,
                    "<rect x=\"{:.1}\" y=\"{top:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{color}\"/>",
                    gx + bw * (b as f64 + 0.5),
                    h - bottom - top
                );
            }
        }
    }
    for (b, (label, color)) in bars.iter().enumerate() {
        let lx = left + 10.0 + 170.0 * b as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{lx}\" y=\"26\" width=\"12\" height=\"10\" fill=\"{color}\"/><text x=\"{}\" y=\"35\">{label}</text>",
            lx + 16.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Writes `report.md`, `report.json`, `sweep.svg` and `profiles.svg` into `dir`.
pub fn write(ours_path: &str, peer_path: Option<&str>, dir: &str) -> Result<(), String> {
    let ours = load(ours_path)?;
    let peer = peer_path.map(load).transpose()?;
    let dir = Path::new(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let put =
        |name: &str, text: String| std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"));
    put("report.md", markdown(&ours, peer.as_ref()))?;
    put(
        "report.json",
        serde_json::to_string_pretty(&json!({"txfx": ours, "reference": peer})).map_err(|e| e.to_string())?,
    )?;
    put("sweep.svg", sweep_svg(&ours))?;
    put("hash.svg", hash_svg(&ours, peer.as_ref()))?;
    put("profiles.svg", profiles_svg(&ours, peer.as_ref()))
}
