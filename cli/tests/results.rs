//! Results as data: `simulate --out` (JSON Lines) and `--json`, shards and `merge`,
//! `balance`'s report, and the deploy files that run shards on a cluster.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn frontier(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("frontier runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frontier-results-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const RUN: &[&str] = &[
    "simulate",
    "go-west",
    "--players",
    "3",
    "--games",
    "23",
    "--seed",
    "9",
];

fn simulate_out(dir: &Path, name: &str, extra: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let mut args = RUN.to_vec();
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", s(&out)]);
    ok(&frontier(&args));
    std::fs::read(&out).unwrap()
}

#[test]
fn simulate_out_writes_one_json_object_per_game() {
    let dir = scratch("lines");
    let all = simulate_out(&dir, "all.jsonl", &[]);
    let text = String::from_utf8(all.clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 23);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["game"], i as u64 + 1);
        assert_eq!(l["players"], serde_json::json!(["p1", "p2", "p3"]));
        assert_eq!(l["scores"].as_array().unwrap().len(), 3);
        assert!(l["decisions"].as_u64().unwrap() > 0);
        let winners = l["winners"].as_array().unwrap();
        let firsts = l["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r.as_u64() == Some(1))
            .count();
        assert_eq!(winners.len(), firsts);
    }
    // Deterministic: the same run writes the same bytes.
    assert_eq!(simulate_out(&dir, "again.jsonl", &[]), all);
    // The first lines and the summary as JSON are documented (docs/results.md): snapshots.
    insta::assert_snapshot!(
        "simulate-out-first-lines",
        text.lines().take(2).collect::<Vec<_>>().join("\n")
    );
    let mut args = RUN.to_vec();
    args.push("--json");
    let o = frontier(&args);
    ok(&o);
    insta::assert_snapshot!("simulate-json-summary", String::from_utf8_lossy(&o.stdout));
    // The summary counts what the lines say, in balance's shape (one summary of a
    // statistic for both commands).
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for name in ["ended_by_wagons", "reached_target_vp"] {
        let held = lines.iter().filter(|l| l["stats"][name] == true).count();
        let st = &summary["stats"][name];
        assert_eq!(
            (st["kind"].as_str(), st["true"].as_u64()),
            (Some("bool"), Some(held as u64)),
            "{name}: {st}"
        );
        assert!(
            st["ci_low"].as_f64() <= st["rate"].as_f64()
                && st["rate"].as_f64() <= st["ci_high"].as_f64(),
            "{name}: {st}"
        );
    }
    // docs/results.md shows this very run's summary (its seats after the first elided).
    let docs = std::fs::read_to_string(repo().join("docs/results.md")).unwrap();
    let shown = docs
        .split("## `simulate --json`: the summary")
        .nth(1)
        .and_then(|t| t.split("```json\n").nth(1))
        .and_then(|t| t.split("```").next())
        .expect("docs/results.md shows the summary");
    let shown: serde_json::Value = serde_json::from_str(&shown.replace(", … ]", " ]"))
        .unwrap_or_else(|e| panic!("docs/results.md's summary: {e}"));
    assert_shown_in(&shown, &summary, "summary");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merged_equal_the_unsharded_run_byte_for_byte() {
    let dir = scratch("shards");
    let all = simulate_out(&dir, "all.jsonl", &[]);
    for n in [1u64, 2, 4, 7, 30] {
        let mut files = Vec::new();
        // Given in reverse: merge orders the games, not the files.
        for k in (1..=n).rev() {
            let name = format!("s{k}-of-{n}.jsonl");
            simulate_out(&dir, &name, &["--shard", &format!("{k}/{n}")]);
            files.push(dir.join(name));
        }
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| s(f).to_string()));
        let o = Command::new(env!("CARGO_BIN_EXE_frontier"))
            .args(&args)
            .output()
            .unwrap();
        ok(&o);
        assert!(
            o.stdout == all,
            "{n} shards merged differ from the unsharded run"
        );
        // --out writes the same bytes.
        let merged = dir.join(format!("merged-{n}.jsonl"));
        args.extend(["--out".to_string(), s(&merged).to_string()]);
        ok(&Command::new(env!("CARGO_BIN_EXE_frontier"))
            .args(&args)
            .output()
            .unwrap());
        assert!(std::fs::read(&merged).unwrap() == all);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bots_give_the_same_lines_whatever_the_threads_and_shards() {
    // Search bots with root-parallel trees: one thread or two, one run or three shards,
    // the same bytes (each game's agents draw from the game's seed, each tree from its number).
    let dir = scratch("bots");
    let run = [
        "simulate",
        "go-west",
        "--players",
        "2",
        "--games",
        "5",
        "--seed",
        "4",
        "--agents",
        "mcts:iterations=12,trees=3,ismcts:iterations=8",
    ];
    let lines = |name: &str, extra: &[&str]| -> Vec<u8> {
        let out = dir.join(name);
        let mut args = run.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", s(&out)]);
        ok(&frontier(&args));
        std::fs::read(&out).unwrap()
    };
    let one = lines("one.jsonl", &["--threads", "1"]);
    assert!(
        one == lines("two.jsonl", &["--threads", "2"]),
        "the lines depend on the thread count"
    );
    let mut merge = vec!["merge".to_string()];
    for k in 1..=3 {
        lines(
            &format!("s{k}.jsonl"),
            &["--shard", &format!("{k}/3"), "--threads", "2"],
        );
        merge.push(s(&dir.join(format!("s{k}.jsonl"))).to_string());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(&merge)
        .output()
        .unwrap();
    ok(&o);
    assert!(
        o.stdout == one,
        "3 shards of a run with bots merged differ from the run"
    );
    let text = String::from_utf8(one).unwrap();
    insta::assert_snapshot!("simulate-out-bots-first-line", text.lines().next().unwrap());
    // Bots in balance too; usage errors in the agents are exit 2 with the agents named.
    let report = dir.join("report.json");
    ok(&frontier(&[
        "balance",
        "go-west",
        "--players",
        "2",
        "--games",
        "2",
        "--agents",
        "mcts:iterations=5,random",
        "--threads",
        "2",
        "--json",
        s(&report),
    ]));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(
        r["agents"],
        serde_json::json!(["mcts:iterations=5", "random"])
    );
    for bad in [
        "mcts:iterations=abc",
        "mcts:depth=3",
        "human",
        "random:x=1",
        "mcts,",
        "alphazero",
    ] {
        let o = frontier(&["simulate", "go-west", "--games", "1", "--agents", bad]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("agents: random, mcts[:options], ismcts[:options]"),
            "{bad}: {err}"
        );
    }
    let o = frontier(&["simulate", "go-west", "--games", "1", "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shards_and_merges_are_refused_and_write_nothing() {
    let dir = scratch("bad");
    for bad in ["0/4", "5/4", "1/0", "a/b", "3", "-1/2"] {
        let out = dir.join("x.jsonl");
        let mut args = RUN.to_vec();
        args.extend_from_slice(&["--shard", bad, "--out", s(&out)]);
        let o = frontier(&args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "--shard {bad}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stderr).contains("error"));
        assert!(!out.exists());
    }
    simulate_out(&dir, "s1.jsonl", &["--shard", "1/3"]);
    simulate_out(&dir, "s2.jsonl", &["--shard", "2/3"]);
    let other = dir.join("other.jsonl");
    ok(&frontier(&[
        "simulate",
        "go-west",
        "--players",
        "3",
        "--games",
        "23",
        "--seed",
        "10",
        "--shard",
        "3/3",
        "--out",
        s(&other),
    ]));
    let merged = dir.join("merged.jsonl");
    let cases: Vec<(Vec<PathBuf>, &str)> = vec![
        (vec![dir.join("s1.jsonl"), dir.join("s2.jsonl")], "missing"),
        (
            vec![
                dir.join("s1.jsonl"),
                dir.join("s1.jsonl"),
                dir.join("s2.jsonl"),
            ],
            "twice",
        ),
        (
            vec![dir.join("s1.jsonl"), dir.join("s2.jsonl"), other.clone()],
            "another run",
        ),
        (vec![dir.join("nosuch.jsonl")], "cannot read"),
    ];
    for (files, says) in cases {
        let mut args: Vec<String> = vec!["merge".into()];
        args.extend(files.iter().map(|f| s(f).to_string()));
        args.extend(["--out".into(), s(&merged).into()]);
        let o = Command::new(env!("CARGO_BIN_EXE_frontier"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!merged.exists());
    }
    std::fs::write(dir.join("junk.jsonl"), "{\"game\": 1}\nnot json\n").unwrap();
    let o = frontier(&["merge", s(&dir.join("junk.jsonl"))]);
    assert_eq!(o.status.code(), Some(1));
    // An --out into a folder that does not exist: refused before playing, nothing written.
    let o = frontier(&[
        "simulate",
        "go-west",
        "--games",
        "2",
        "--out",
        s(&dir.join("no/such/x.jsonl")),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = frontier(&["simulate", "go-west", "--games", "2", "--agents", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    // Two agents for three players: the arguments contradict each other (bad usage).
    let o = frontier(&[
        "simulate",
        "go-west",
        "--players",
        "3",
        "--games",
        "2",
        "--agents",
        "random,random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Games are written as they are played, yet a run whose game fails part-way leaves
/// nothing: no --out file, no trace (nor a trace folder it would have made), no temporary
/// file; a trace folder that was there keeps what it held.
#[test]
fn a_run_that_fails_part_way_writes_nothing() {
    let dir = scratch("fails");
    // Game 5 of this run (seed 1, 3 players) ends with the VP summing to a multiple of 9.
    std::fs::write(
        dir.join("fails.yaml"),
        "extends: go-west\nname: go-west-fails\nstats:\n  fragile: \"100 / (sum(players, vp[it]) % 9)\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("kept")).unwrap();
    std::fs::write(dir.join("kept/notes.txt"), "mine").unwrap();
    for traces in ["new", "kept"] {
        let o = frontier(&[
            "simulate",
            s(&dir.join("fails.yaml")),
            "--players",
            "3",
            "--games",
            "40",
            "--seed",
            "1",
            "--out",
            s(&dir.join("out.jsonl")),
            "--trace-out",
            s(&dir.join(traces)),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("division by zero"), "{err}");
        let mut left: Vec<String> = walk(&dir);
        left.sort();
        assert_eq!(
            left,
            ["fails.yaml", "kept", "kept/notes.txt"],
            "--trace-out {traces}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The paths under `dir`, relative to it.
fn walk(dir: &Path) -> Vec<String> {
    let mut paths = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            paths.extend(walk(&e.path()).into_iter().map(|p| format!("{name}/{p}")));
        }
        paths.push(name);
    }
    paths
}

#[test]
fn balance_writes_a_report_with_tables_and_plots_and_a_json_snapshot() {
    let dir = scratch("balance");
    let variant = dir.join("short.yaml");
    std::fs::write(
        &variant,
        "extends: go-west\nname: go-west-short\nparams:\n  target_vp: 40\n",
    )
    .unwrap();
    let (html, json) = (dir.join("report.html"), dir.join("report.json"));
    let o = frontier(&[
        "balance",
        "go-west",
        "--variant",
        s(&variant),
        "--players",
        "3",
        "--games",
        "60",
        "--seed",
        "1",
        "--report",
        s(&html),
        "--json",
        s(&json),
    ]);
    ok(&o);
    let report = std::fs::read_to_string(&json).unwrap();
    let _: serde_json::Value = serde_json::from_str(&report).unwrap();
    // The variant's path differs from run to run.
    insta::assert_snapshot!(
        "balance-go-west-short-60-games",
        report.replace(s(&variant), "TMP/short.yaml")
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert_eq!(page.matches("<svg").count(), 3, "three plots");
    for id in [
        "id=\"win-rates\"",
        "id=\"scores\"",
        "id=\"lengths\"",
        "<table class=\"seats\">",
        "<table class=\"comparison\">",
        "go-west-short vs go-west",
    ] {
        assert!(page.contains(id), "the page lacks {id}");
    }
    // Self-contained: nothing fetched from elsewhere.
    assert!(!page.contains("<script") && !page.contains("src=") && !page.contains("href="));
    // Bad input: a variant that does not load, an unwritable report: exit 1, nothing written.
    let o = frontier(&[
        "balance",
        "go-west",
        "--variant",
        "nosuch",
        "--games",
        "2",
        "--report",
        s(&dir.join("r2.html")),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!dir.join("r2.html").exists());
    let o = frontier(&["balance", "go-west", "--games", "2"]);
    assert_eq!(o.status.code(), Some(1), "nothing to write");
    let o = frontier(&["balance", "go-west", "--games", "2", "--report", s(&dir)]);
    assert_eq!(o.status.code(), Some(1), "a folder as the report");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts that what the docs show of a JSON answer is in it: every key shown, with the value
/// shown (numbers as numbers), and a list's shown elements as its first ones.
fn assert_shown_in(shown: &serde_json::Value, real: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (shown, real) {
        (Value::Object(s), Value::Object(r)) => {
            for (k, v) in s {
                let real = r.get(k).unwrap_or_else(|| {
                    panic!("{at}.{k}: shown in the docs, absent from the answer")
                });
                assert_shown_in(v, real, &format!("{at}.{k}"));
            }
        }
        (Value::Array(s), Value::Array(r)) => {
            assert!(
                s.len() <= r.len(),
                "{at}: the docs show {} elements, the answer has {}",
                s.len(),
                r.len()
            );
            for (i, (v, real)) in s.iter().zip(r).enumerate() {
                assert_shown_in(v, real, &format!("{at}[{i}]"));
            }
        }
        (Value::Number(s), Value::Number(r)) => assert_eq!(
            s.as_f64(),
            r.as_f64(),
            "{at}: the docs show {s}, the answer has {r}"
        ),
        _ => assert_eq!(shown, real, "{at}"),
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn the_k8s_job_runs_one_shard_per_completion_index() {
    let text = std::fs::read_to_string(repo().join("deploy/k8s/balance-job.yaml")).unwrap();
    let job: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"));
    assert_eq!(job["kind"].as_str(), Some("Job"));
    assert!(job["metadata"]["name"]
        .as_str()
        .is_some_and(|n| !n.is_empty()));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_u64().expect("completions");
    assert!(spec["parallelism"]
        .as_u64()
        .is_some_and(|p| p >= 1 && p <= completions));
    let pod = &spec["template"]["spec"];
    assert!(matches!(
        pod["restartPolicy"].as_str(),
        Some("Never" | "OnFailure")
    ));
    let containers = pod["containers"].as_sequence().expect("containers");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    assert!(c["image"].as_str().is_some_and(|i| !i.is_empty()));
    let env: std::collections::BTreeMap<String, String> = c["env"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["value"]
                    .as_str()
                    .expect("env values are strings")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        env["SHARDS"].parse::<u64>().unwrap(),
        completions,
        "SHARDS must equal spec.completions"
    );
    let mounts: Vec<&str> = c["volumeMounts"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| m["mountPath"].as_str().unwrap())
        .collect();
    assert!(
        mounts.contains(&env["RESULTS_DIR"].as_str()),
        "the results folder is a mounted volume"
    );
    let volume_names: Vec<&str> = pod["volumes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for m in c["volumeMounts"].as_sequence().unwrap() {
        assert!(volume_names.contains(&m["name"].as_str().unwrap()));
    }
    let command: Vec<&str> = c["command"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(command, ["/bin/sh", "-c"]);
    let script = c["args"][0].as_str().unwrap();
    assert!(
        script.contains("JOB_COMPLETION_INDEX")
            && script.contains("--shard")
            && script.contains("--out")
    );

    // Run the container's command here for every index (a small run, the binary on PATH):
    // the shards merge to the unsharded run.
    let dir = scratch("k8s");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_frontier")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shards = 3;
    for index in 0..shards {
        let mut cmd = Command::new(command[0]);
        cmd.arg(command[1]).arg(script);
        for (k, v) in &env {
            cmd.env(k, v);
        }
        cmd.env("PATH", &path)
            .env("GAMES", "23")
            .env("PLAYERS", "3")
            .env("SEED", "9")
            .env("SHARDS", shards.to_string())
            .env("RESULTS_DIR", dir.join("results"))
            .env("JOB_COMPLETION_INDEX", index.to_string());
        ok(&cmd.output().unwrap());
    }
    let files: Vec<String> = (1..=shards)
        .map(|k| s(&dir.join(format!("results/results-{k}-of-{shards}.jsonl"))).to_string())
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .arg("merge")
        .args(&files)
        .output()
        .unwrap();
    ok(&o);
    assert!(o.stdout == simulate_out(&dir, "all.jsonl", &[]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sbatch_script_runs_its_shards_locally() {
    let script = repo().join("deploy/slurm/balance.sbatch");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.starts_with("#!/bin/bash") && text.contains("#SBATCH --array="));
    let dir = scratch("slurm");
    let n = 4;
    for k in 1..=n {
        let o = Command::new("bash")
            .arg(&script)
            .current_dir(&dir)
            .env("FRONTIER", env!("CARGO_BIN_EXE_frontier"))
            .env("RULESET", "go-west")
            .env("PLAYERS", "3")
            .env("GAMES", "23")
            .env("SEED", "9")
            .env("OUT_DIR", "out")
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", n.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_CPUS_PER_TASK", k.to_string())
            .output()
            .unwrap();
        ok(&o);
        // The task plays on as many threads as Slurm gave it CPUs.
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(&format!("({k} threads)")), "{stderr}");
    }
    let files: Vec<String> = (1..=n)
        .map(|k| s(&dir.join(format!("out/results-{k}-of-{n}.jsonl"))).to_string())
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .arg("merge")
        .args(&files)
        .output()
        .unwrap();
    ok(&o);
    assert!(o.stdout == simulate_out(&dir, "all.jsonl", &[]));
    // Without an array task id, the script says what it needs and fails.
    let o = Command::new("bash")
        .arg(&script)
        .current_dir(&dir)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("SLURM_ARRAY_TASK_ID"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Chromium binary: $CHROMIUM, else `chromium` or `chromium-browser` on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("CHROMIUM").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

/// The report opened in headless Chromium: a script added to a copy of the page measures
/// what the browser laid out (each plot's size and marks, each table's rows) and the
/// page's DOM, dumped by the browser, carries the measurements back. CI (`.ci/run`)
/// installs Debian's `chromium`; elsewhere the test is skipped when there is none (and
/// fails when CI is set).
#[test]
fn the_report_renders_in_headless_chromium() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no chromium is installed (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipped: no chromium on PATH (set CHROMIUM to a Chromium binary)");
        return;
    };
    let dir = scratch("chromium");
    let variant = dir.join("short.yaml");
    std::fs::write(
        &variant,
        "extends: go-west\nname: go-west-short\nparams:\n  target_vp: 40\n",
    )
    .unwrap();
    let html = dir.join("report.html");
    ok(&frontier(&[
        "balance",
        "go-west",
        "--variant",
        s(&variant),
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "2",
        "--report",
        s(&html),
    ]));
    let page = std::fs::read_to_string(&html).unwrap();
    let probe = r#"<script>
const r = {
  svgs: [...document.querySelectorAll('svg.plot')].map(s => { const b = s.getBoundingClientRect();
    return { id: s.id, width: Math.round(b.width), height: Math.round(b.height),
             marks: s.querySelectorAll('circle,rect,polyline,line').length }; }),
  tables: [...document.querySelectorAll('table')].map(t => ({ class: t.className, rows: t.rows.length, cells: t.rows[1] ? t.rows[1].cells.length : 0 })),
  title: document.title,
};
const pre = document.createElement('pre'); pre.id = 'measured'; pre.textContent = JSON.stringify(r); document.body.appendChild(pre);
</script></body>"#;
    let probed = dir.join("probed.html");
    std::fs::write(&probed, page.replace("</body>", probe)).unwrap();
    let profile = dir.join("profile");
    let output = Command::new("timeout")
        .arg("120")
        .arg(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--window-size=1000,2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let dom = String::from_utf8_lossy(&output.stdout);
    let start = dom
        .find("<pre id=\"measured\">")
        .expect("the probe ran in the browser")
        + "<pre id=\"measured\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let measured: serde_json::Value = serde_json::from_str(
        &dom[start..end]
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">"),
    )
    .unwrap();
    let svgs = measured["svgs"].as_array().unwrap();
    let ids: Vec<&str> = svgs.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["win-rates", "scores", "lengths"]);
    for svg in svgs {
        assert!(
            svg["width"].as_u64().unwrap() >= 300 && svg["height"].as_u64().unwrap() >= 200,
            "{svg}"
        );
        assert!(svg["marks"].as_u64().unwrap() >= 10, "{svg}");
    }
    let tables = measured["tables"].as_array().unwrap();
    // A seats table per ruleset (header + 3 seats, 12 columns) and one comparison.
    let seats: Vec<_> = tables.iter().filter(|t| t["class"] == "seats").collect();
    assert_eq!(seats.len(), 2);
    for t in seats {
        assert_eq!(
            (t["rows"].as_u64(), t["cells"].as_u64()),
            (Some(4), Some(12)),
            "{t}"
        );
    }
    assert!(tables
        .iter()
        .any(|t| t["class"] == "comparison" && t["rows"] == 4));
    assert_eq!(measured["title"], "Balance report: go-west");
    let _ = std::fs::remove_dir_all(&dir);
}
