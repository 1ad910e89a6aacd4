"""scripts/predict-this-machine: record a real PostgreSQL 15 run here, predict it with ckptsim, compare.

1. fio (scripts/calibrate.fio) on a file in the same file system as the
   cluster, then `ckptsim calibrate`: the device preset.
2. A throw-away PostgreSQL 15 cluster (non-root, unix socket only, as
   scripts/validate-pg runs it): pgbench -i at SCALE, a restart (empty shared
   buffers, the tables in the page cache, as ckptsim starts), then the
   write-heavy run: -N -M prepared -c 4 -j 2 -T 300 -P 1, shared_buffers 1GB,
   max_wal_size 2GB, checkpoint_timeout 60s so that checkpoints are frequent.
   Recorded: the -P log, pg_stat_bgwriter, pg_stat_wal (track_wal_io_timing
   on: wal_sync_time), the checkpoints' log lines, /proc/diskstats of the
   file system's disk before and after.
3. CPU per statement, measured on the same server after the run, with the
   tables cached: pg_stat_statements' mean_exec_time of each pgbench
   statement in a -N run at -c 1 with synchronous_commit off (no commit
   waits for the disk), and pgbench's own latency at -c 1 minus the server's
   share for the client side (socket round trips and pgbench), spread over
   the five round trips of a -N transaction. A prepared statement is not
   re-planned: cpu_parse does not enter. PostgreSQL 15's pg_stat_statements
   does not list BEGIN and END sent by the extended protocol: their server
   time then stays in the client share (cpu_begin_end and cpu_commit 0).
4. ckptsim run with the calibrated preset (--preset-file), hardware.cpus 2,
   linux-modern, the same settings and the measured CPU costs; then
   `ckptsim compare` of the real -P log and the simulated run, and the table
   of targets.

Everything runs under a temporary folder in /tmp and is removed at the end,
but --keep DIR keeps the recording (record.json, pgbench.log, fio.json, the
preset, the simulated run). --from DIR re-runs only step 4 from a kept
recording.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from pg_cluster import Cluster

PORT = 5441
CKPTSIM = os.path.abspath("build/ckptsim")
SETTINGS = {"shared_buffers": "1GB", "max_wal_size": "2GB", "checkpoint_timeout": "60s"}
RUN = {"clients": 4, "threads": 2, "duration": 300}

# Targets: (name, key, tolerance, kind): "rel" relative, "pp" percentage points.
TARGETS = [
    ("mean tps", "tps_mean", 0.25, "rel"),
    ("% of seconds below half the median", "pct_below_half_median", 5.0, "pp"),
    ("checkpoints per million transactions", "checkpoints_per_mtx", 0.15, "rel"),
    ("buffers written per checkpoint", "buffers_per_checkpoint", 0.15, "rel"),
    ("WAL bytes per transaction", "wal_bytes_per_tx", 0.15, "rel"),
    ("full-page images per transaction", "wal_fpi_per_tx", 0.15, "rel"),
    ("checkpoint write seconds", "checkpoint_write_s", 0.30, "rel"),
    ("checkpoint sync seconds", "checkpoint_sync_s", 0.30, "rel"),
]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def disk_of(path):
    """The block device under `path` and its /proc/diskstats name."""
    dev = os.stat(path).st_dev
    major, minor = os.major(dev), os.minor(dev)
    with open("/proc/diskstats") as f:
        for line in f:
            fields = line.split()
            if int(fields[0]) == major and int(fields[1]) == minor:
                return fields[2]
    return None


def diskstats(name):
    """The fields of /proc/diskstats for `name` (Documentation/admin-guide/iostats.rst)."""
    with open("/proc/diskstats") as f:
        for line in f:
            fields = line.split()
            if fields[2] == name:
                keys = ["reads", "reads_merged", "sectors_read", "read_ms", "writes", "writes_merged",
                        "sectors_written", "write_ms", "in_flight", "io_ms", "weighted_ms", "discards",
                        "discards_merged", "sectors_discarded", "discard_ms", "flushes", "flush_ms"]
                return {k: int(v) for k, v in zip(keys, fields[3:])}
    return {}


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def record(work, scale, fio_runtime):
    server_log = os.path.join(work, "server.log")
    cluster = Cluster(work, PORT, server_log)
    rec = {"scale": scale, "settings": SETTINGS, "run": RUN, "loadavg_start": loadavg(), "nproc": os.cpu_count()}
    with open("/proc/meminfo") as f:
        rec["ram_kb"] = int(f.readline().split()[1])
    rec["disk"] = disk_of(work)

    log(f"fio on {work} ({fio_runtime} s per job, 11 jobs)")
    env = dict(os.environ, CKPTSIM_FIO_FILE=os.path.join(work, "fio.dat"), CKPTSIM_FIO_SIZE="2g",
               CKPTSIM_FIO_RUNTIME=str(fio_runtime))
    fio = subprocess.run(["fio", "--output-format=json", "scripts/calibrate.fio"], env=env, check=True,
                         capture_output=True, text=True)
    os.remove(os.path.join(work, "fio.dat"))
    with open(os.path.join(work, "fio.json"), "w") as f:
        f.write(fio.stdout)

    pgbench, query = cluster.pgbench, cluster.query

    def start():
        cluster.start(dict(SETTINGS, log_checkpoints="on", track_wal_io_timing="on", track_io_timing="on",
                           shared_preload_libraries="pg_stat_statements"))

    try:
        cluster.initdb()
        start()
        rec["server"] = query("select version()")
        log(f"pgbench -i -s {scale}")
        cluster.run(pgbench + ["-i", "-q", "-s", str(scale), "postgres"])
        query("create extension pg_stat_statements")
        query("checkpoint")
        cluster.stop()
        start()  # empty shared buffers, the tables in the page cache: ckptsim's start state
        query("select pg_stat_reset(), pg_stat_reset_shared('bgwriter'), pg_stat_reset_shared('wal'), "
              "pg_stat_statements_reset()")
        with open(server_log) as f:
            log_offset = len(f.read())
        rec["loadavg_before_run"] = loadavg()
        before = diskstats(rec["disk"])
        log(f"pgbench -N -M prepared -c {RUN['clients']} -j {RUN['threads']} -T {RUN['duration']} -P 1 "
            f"(load average {rec['loadavg_before_run'][0]:.1f} on {os.cpu_count()} cores)")
        t0 = time.time()
        done = cluster.run(pgbench + ["-n", "-N", "-M", "prepared", "-c", str(RUN["clients"]), "-j",
                                       str(RUN["threads"]), "-T", str(RUN["duration"]), "-P", "1", "postgres"],
                      cwd=work)
        rec["wall_s"] = time.time() - t0
        after = diskstats(rec["disk"])
        rec["loadavg_after_run"] = loadavg()
        rec["diskstats_delta"] = {k: after[k] - before[k] for k in before if k != "in_flight"}
        with open(os.path.join(work, "pgbench.log"), "w") as f:
            f.write(done.stderr)
        rec["pgbench_summary"] = done.stdout
        m = re.search(r"number of transactions actually processed: (\d+)", done.stdout)
        rec["transactions"] = int(m.group(1)) if m else 0
        time.sleep(1.5)  # statistics arrive at transaction end and with the bgwriter's rounds
        rec["counters"] = json.loads(query(
            "select json_build_object("
            "'checkpoints_timed', b.checkpoints_timed, 'checkpoints_req', b.checkpoints_req, "
            "'checkpoint_write_time', b.checkpoint_write_time, 'checkpoint_sync_time', b.checkpoint_sync_time, "
            "'buffers_checkpoint', b.buffers_checkpoint, 'buffers_clean', b.buffers_clean, "
            "'buffers_backend', b.buffers_backend, 'buffers_backend_fsync', b.buffers_backend_fsync, "
            "'buffers_alloc', b.buffers_alloc, "
            "'wal_records', w.wal_records, 'wal_fpi', w.wal_fpi, 'wal_bytes', w.wal_bytes, "
            "'wal_write', w.wal_write, 'wal_sync', w.wal_sync, 'wal_write_time', w.wal_write_time, "
            "'wal_sync_time', w.wal_sync_time, 'blks_hit', d.blks_hit, 'blks_read', d.blks_read) "
            "from pg_stat_bgwriter b, pg_stat_wal w, pg_stat_database d where d.datname = 'postgres'"))
        with open(server_log) as f:
            text = f.read()[log_offset:]
        # "checkpoint complete: wrote N buffers (...); ... write=W s, sync=S s, total=T s; ..."
        rec["checkpoints"] = [
            {"buffers": int(b), "write_s": float(w), "sync_s": float(s)}
            for b, w, s in re.findall(r"checkpoint complete: wrote (\d+) buffers.*?write=([\d.]+) s, "
                                      r"sync=([\d.]+) s", text)]

        log("CPU per statement: -N at -c 1, synchronous_commit off, 20 s")
        query("select pg_stat_statements_reset()")
        cpu = cluster.run(pgbench + ["-n", "-N", "-M", "prepared", "-c", "1", "-j", "1", "-T", "20",
                                      "postgres"], env=dict(os.environ, PGOPTIONS="-c synchronous_commit=off"))
        m = re.search(r"latency average = ([\d.]+) ms", cpu.stdout)
        rec["cpu_run_latency_ms"] = float(m.group(1)) if m else 0.0
        rec["statements"] = json.loads(query(
            "select json_agg(json_build_object('query', query, 'calls', calls, 'mean_ms', mean_exec_time)) "
            "from pg_stat_statements where calls > 1000"))
    finally:
        cluster.stop()
    rec["loadavg_end"] = loadavg()
    with open(os.path.join(work, "record.json"), "w") as f:
        json.dump(rec, f, indent=1)
    return rec


def cpu_costs(rec):
    """ckptsim's pgbench.cpu_* from the statements' mean execution times (ms) and the -c 1 latency."""
    by = {}
    for s in rec["statements"] or []:
        q = s["query"].strip().lower()
        kind = ("update" if q.startswith("update") else "select" if q.startswith("select") else
                "insert" if q.startswith("insert") else "begin" if q.startswith("begin") else
                "end" if q.startswith("end") or q.startswith("commit") else None)
        if kind:
            by[kind] = by.get(kind, 0.0) + s["mean_ms"] * 1000  # us
    server = sum(by.values())
    client = max(rec["cpu_run_latency_ms"] * 1000 - server, 0.0) / 5  # five round trips per -N transaction
    begin = by.get("begin", 0.0)
    return {
        "cpu_select": f"{by.get('select', 0.0):.1f}us",
        "cpu_update": f"{by.get('update', 0.0):.1f}us",
        "cpu_insert": f"{by.get('insert', 0.0):.1f}us",
        "cpu_begin_end": f"{begin:.1f}us",
        # END's own time beyond a BEGIN's is the commit's work (without its WAL flush: synchronous_commit off).
        "cpu_commit": f"{max(by.get('end', 0.0) - begin, 0.0):.1f}us",
        "cpu_client": f"{client:.1f}us",
    }


def ckptsim_json(args):
    return json.loads(subprocess.run([CKPTSIM] + args + ["--json"], check=True, capture_output=True,
                                     text=True).stdout)


def predict(work, rec):
    preset = os.path.join(work, "this-machine.json")
    if not os.path.exists(preset):
        subprocess.run([CKPTSIM, "calibrate", os.path.join(work, "fio.json"), "--name", "this-machine", "--out",
                        preset], check=True)
    costs = cpu_costs(rec)
    log("CPU per statement (us): " + ", ".join(f"{k} {v}" for k, v in costs.items()))
    scenario = {
        "description": "scripts/predict-this-machine: the recorded PostgreSQL 15 run on this host",
        "hardware": {"cpus": 2, "ram": f"{rec['ram_kb'] // 1024}MB"},
        "os": {"kernel": "linux-modern"},
        "postgres": dict(SETTINGS, version="15", log_checkpoints=True),
        "pgbench": dict(builtin="simple-update", scale=rec["scale"], clients=RUN["clients"],
                        threads=RUN["threads"], protocol="prepared", duration=f"{RUN['duration']}s",
                        progress="1s", **costs),
        "seed": 1,
    }
    path = os.path.join(work, "scenario.json")
    with open(path, "w") as f:
        json.dump(scenario, f, indent=1)
    sim_dir = os.path.join(work, "simulated")
    shutil.rmtree(sim_dir, ignore_errors=True)
    log("ckptsim run with the calibrated preset")
    subprocess.run([CKPTSIM, "run", path, "--preset-file", preset, "--out", sim_dir, "--quiet"], check=True)
    real_log = os.path.join(work, "pgbench.log")

    real_median = ckptsim_json(["analyze", real_log])["tps_median"]
    sim_median = ckptsim_json(["analyze", sim_dir])["tps_median"]
    real_fig = ckptsim_json(["analyze", real_log, "--threshold", str(real_median / 2)])
    sim_fig = ckptsim_json(["analyze", sim_dir, "--threshold", str(sim_median / 2)])
    shown = subprocess.run([CKPTSIM, "compare", real_log, sim_dir, "--threshold", str(real_median / 2), "--out",
                            work], check=True, capture_output=True, text=True)
    print(shown.stdout)

    with open(os.path.join(sim_dir, "summary.json")) as f:
        summary = json.load(f)
    real_c, sim_b, sim_w = rec["counters"], summary["pg_stat_bgwriter"], summary["pg_stat_wal"]
    real_tx, sim_tx = rec["transactions"], summary["pgbench"]["transactions"]
    sim_ckpts = []
    with open(os.path.join(sim_dir, "checkpoints.csv")) as f:
        header = f.readline().strip().split(",")
        for line in f:
            row = dict(zip(header, line.strip().split(",")))
            if row.get("sync_end_s"):
                sim_ckpts.append({"buffers": int(row["buffers"]),
                                  "write_s": float(row["write_end_s"]) - float(row["start_s"]),
                                  "sync_s": float(row["sync_end_s"]) - float(row["write_end_s"])})

    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")

    def figures(stab, tx, checkpoints_done, ckpts, wal_bytes, wal_fpi):
        return {
            "tps_mean": stab["tps_mean"],
            "pct_below_half_median": stab["pct_below_threshold"],
            "checkpoints_per_mtx": 1e6 * checkpoints_done / tx if tx else float("nan"),
            "buffers_per_checkpoint": mean([c["buffers"] for c in ckpts]),
            "wal_bytes_per_tx": wal_bytes / tx if tx else float("nan"),
            "wal_fpi_per_tx": wal_fpi / tx if tx else float("nan"),
            "checkpoint_write_s": mean([c["write_s"] for c in ckpts]),
            "checkpoint_sync_s": mean([c["sync_s"] for c in ckpts]),
        }

    real = figures(real_fig, real_tx, len(rec["checkpoints"]), rec["checkpoints"], real_c["wal_bytes"],
                   real_c["wal_fpi"])
    sim = figures(sim_fig, sim_tx, len(sim_ckpts), sim_ckpts, sim_w["wal_bytes"], sim_w["wal_fpi"])

    print(f"{'target':<40} {'real':>12} {'ckptsim':>12} {'diff':>10}  {'within':<8}")
    print("-" * 88)
    hits = 0
    for name, key, tol, kind in TARGETS:
        r, s = real[key], sim[key]
        if kind == "pp":
            diff, ok, text = s - r, abs(s - r) <= tol, f"{s - r:+.1f} pp"
            target = f"±{tol:g} pp"
        else:
            diff = (s - r) / r if r else float("inf")
            ok, text, target = abs(diff) <= tol, f"{100 * diff:+.1f}%", f"±{100 * tol:g}%"
        hits += ok
        print(f"{name:<40} {r:>12.4g} {s:>12.4g} {text:>10}  {target} {'ok' if ok else 'MISS'}")
    print(f"{hits} of {len(TARGETS)} targets met")

    # Where a commit's time goes: the real WAL syncs and the disk, against ckptsim's.
    d = rec["diskstats_delta"]
    sim_dev = summary.get("devices", {})
    print("\ncounters for the causes (real | ckptsim):")
    print(f"  transactions {real_tx} | {sim_tx}")
    print(f"  wal_sync {real_c['wal_sync']} ({real_c['wal_sync_time'] / max(real_c['wal_sync'], 1):.3f} ms each) | "
          f"{sim_w['wal_sync']}")
    print(f"  disk {rec['disk']}: {d.get('writes', 0)} writes, {d.get('flushes', 0)} flushes "
          f"({d.get('flush_ms', 0) / max(d.get('flushes', 1), 1):.3f} ms each), "
          f"write wait {d.get('write_ms', 0) / max(d.get('writes', 1), 1):.3f} ms per write")
    print(f"  ckptsim devices: {json.dumps(sim_dev)[:400]}")
    print(f"  ckptsim waits: {json.dumps(summary.get('waits', {}))[:600]}")
    print(f"  load average before / after the run: {rec['loadavg_before_run']} / {rec['loadavg_after_run']} "
          f"on {rec['nproc']} cores (other sessions share them: the real run's CPU is contended)")
    return hits == len(TARGETS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=150, help="pgbench scale (150: about 2.3 GB)")
    ap.add_argument("--fio-runtime", type=int, default=5, help="seconds per fio job")
    ap.add_argument("--duration", type=int, default=300, help="pgbench -T, seconds")
    ap.add_argument("--keep", help="keep the recording and the simulated run in this folder")
    ap.add_argument("--from", dest="from_dir", help="predict again from a folder kept with --keep")
    args = ap.parse_args()
    RUN["duration"] = args.duration
    if args.from_dir:
        with open(os.path.join(args.from_dir, "record.json")) as f:
            rec = json.load(f)
        RUN.update(rec["run"])
        sys.exit(0 if predict(args.from_dir, rec) else 1)
    free = shutil.disk_usage(tempfile.gettempdir()).free
    need = args.scale * 16 * 2**20 + 6 * 2**30  # the tables, WAL up to 2 GB and the fio file
    if free < need:
        sys.exit(f"predict-this-machine: {tempfile.gettempdir()} has {free >> 30} GB free, needs {need >> 30} GB")
    work = tempfile.mkdtemp(prefix="ckptsim-predict-")
    try:
        rec = record(work, args.scale, args.fio_runtime)
        if args.keep:  # the recording first: a failed prediction can be re-run with --from
            os.makedirs(args.keep, exist_ok=True)
            for name in ["record.json", "pgbench.log", "fio.json", "server.log"]:
                shutil.copy(os.path.join(work, name), args.keep)
            work_for_prediction = args.keep
        else:
            work_for_prediction = work
        ok = predict(work_for_prediction, rec)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
