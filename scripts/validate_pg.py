"""Real side of scripts/validate-pg: runs the cases on PostgreSQL 15, then ckptsim compare-pg.

Each case is a PostgreSQL configuration and a pgbench command with a fixed
transaction count (-t), so that counters compare whatever the speed of this
machine. The server is restarted before each case (empty shared buffers, as
the simulator starts) and its statistics reset.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from pg_cluster import BIN, USER, Cluster, run_as

PORT = 5439
SCALE = 10

# name, postgresql.conf settings, pgbench options; the same settings go to ckptsim.
def cases(transactions):
    out = []
    for sb in ["16MB", "32MB", "64MB", "128MB"]:
        out.append({
            "name": f"select-only sb={sb}",
            "postgres": {"shared_buffers": sb},
            "pgbench": {"builtin": "select-only", "clients": 4, "threads": 2, "transactions": transactions,
                        "protocol": "prepared"},
        })
    for maxpages in [0, 100, 1000]:
        out.append({
            "name": f"simple-update lru_maxpages={maxpages}",
            "postgres": {"shared_buffers": "32MB", "bgwriter_lru_maxpages": maxpages,
                         "checkpoint_timeout": "30s", "max_wal_size": "64MB"},
            # -R pins the rate, so that counters of time-driven processes (the bgwriter's
            # 100 pages per 200 ms) compare per transaction whatever this machine's speed.
            "pgbench": {"builtin": "simple-update", "clients": 4, "threads": 2, "rate": 250,
                        "transactions": transactions // 2, "protocol": "prepared"},
        })
    return out

PGBENCH_FLAGS = {"select-only": "-S", "simple-update": "-N", "tpcb-like": ""}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--transactions", type=int, default=20000, help="per client, select-only cases")
    ap.add_argument("--keep", help="write the recorded real counters here")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="ckptsim-validate-")
    cluster = Cluster(tmp, PORT, os.path.join(tmp, "log"))
    user, psql, start, stop, query = USER, cluster.psql, cluster.start, cluster.stop, cluster.query
    sock = cluster.sock
    try:
        cluster.initdb()
        recorded = {"server": None, "scale": SCALE, "cases": []}

        start({})
        recorded["server"] = query("select version()")
        print(f"initialising pgbench scale {SCALE} ...", file=sys.stderr)
        run_as(user, [f"{BIN}/pgbench", "-h", sock, "-p", str(PORT), "-i", "-q", "-s", str(SCALE), "postgres"])
        stop()

        for case in cases(args.transactions):
            print(f"real: {case['name']}", file=sys.stderr)
            pg = {k: str(v) for k, v in case["postgres"].items()}
            start(pg)
            if case["pgbench"]["builtin"] != "select-only":
                # Updates change the tables (HOT chains, new row versions): each
                # write case starts from a fresh load, as the simulator does.
                run_as(user, [f"{BIN}/pgbench", "-h", sock, "-p", str(PORT), "-i", "-q", "-s", str(SCALE),
                              "postgres"])
            run_as(user, psql + ["-c", "vacuum pgbench_branches", "-c", "vacuum pgbench_tellers",
                                 "-c", "truncate pgbench_history", "-c", "checkpoint",
                                 "-c", "select pg_stat_reset(), pg_stat_reset_shared('bgwriter'), "
                                       "pg_stat_reset_shared('wal')"])
            b = case["pgbench"]
            cmd = [f"{BIN}/pgbench", "-h", sock, "-p", str(PORT), "-n", "-c", str(b["clients"]),
                   "-j", str(b["threads"]), "-t", str(b["transactions"]), "-M", b["protocol"]]
            if b.get("rate"):
                cmd += ["-R", str(b["rate"])]
            if PGBENCH_FLAGS[b["builtin"]]:
                cmd.append(PGBENCH_FLAGS[b["builtin"]])
            # -P 1 on stderr and one aggregate log per thread, as a user records a run:
            # `ckptsim analyze` reads both (tests/cli/test_analyze_real.cpp).
            cmd += ["-P", "1", "-l", "--aggregate-interval", "1"]
            done = run_as(user, cmd + ["postgres"], cwd=tmp)
            out = done.stdout
            tps = next((l for l in out.splitlines() if l.startswith("tps")), "")
            aggregate = {}
            for name in sorted(os.listdir(tmp)):
                if name.startswith("pgbench_log."):
                    path = os.path.join(tmp, name)
                    with open(path) as f:
                        # The PID differs every run: keep the thread suffix only.
                        aggregate["pgbench_log.1" + name[len("pgbench_log.") :].lstrip("0123456789")] = f.read()
                    os.remove(path)
            # Statistics are sent at transaction end and by the bgwriter every round: let them arrive.
            subprocess.run(["sleep", "1.5"], check=True)
            counters = json.loads(query(
                "select json_build_object("
                "'blks_hit', d.blks_hit, 'blks_read', d.blks_read, 'xact_commit', d.xact_commit, "
                "'checkpoints_timed', b.checkpoints_timed, 'checkpoints_req', b.checkpoints_req, "
                "'buffers_checkpoint', b.buffers_checkpoint, 'buffers_clean', b.buffers_clean, "
                "'maxwritten_clean', b.maxwritten_clean, 'buffers_backend', b.buffers_backend, "
                "'buffers_backend_fsync', b.buffers_backend_fsync, 'buffers_alloc', b.buffers_alloc, "
                "'wal_records', w.wal_records, 'wal_fpi', w.wal_fpi, 'wal_bytes', w.wal_bytes) "
                "from pg_stat_database d, pg_stat_bgwriter b, pg_stat_wal w where d.datname = 'postgres'"))
            counters["transactions"] = b["transactions"] * b["clients"]
            recorded["cases"].append({**case, "real": counters, "real_tps_line": tps,
                                      "real_progress_log": done.stderr, "real_aggregate_logs": aggregate})
            stop()
    finally:
        stop()
        shutil.rmtree(tmp, ignore_errors=True)

    path = args.keep or os.path.join(tempfile.gettempdir(), "ckptsim-pg15-recorded.json")
    with open(path, "w") as f:
        json.dump(recorded, f, indent=2)
    print(f"recorded real counters in {path}", file=sys.stderr)
    sys.exit(subprocess.run(["build/ckptsim", "compare-pg", path]).returncode)

if __name__ == "__main__":
    main()
