"""Real side of the storms issue: one pgbench run of a real PostgreSQL 15 on a throttled disk.

A loop device (direct I/O, over a sparse file under /tmp) carries an ext4 file
system with the cluster's data directory and WAL. Its I/O is capped by the
kernel's block throttle (blk-throttle), set at the root of the cgroup v1 blkio
hierarchy for the loop device's MAJ:MIN, so that every task's bios are capped:
backends, the checkpointer and the kernel's flusher threads alike. Order:

  initdb, start (autovacuum off, log_checkpoints, log_line_prefix with %m),
  pgbench -i -s SCALE, CHECKPOINT and sync          (uncapped)
  set the cap, pgbench -n -S warmup                 (capped)
  stats_before.json, iostat, meminfo and blkio samplers (blkio.csv: what the throttle charged),
  the measured pgbench -n -P 1 --progress-timestamp, stats_after.json

Cleanup, in this order, also on SIGINT / SIGTERM: the cap is removed (so that
nothing waits on it), the cluster stopped, the file system unmounted, the loop
device detached, its file removed and any vm.dirty_* changed restored.

Every file goes into the run's folder (refused if it exists and is not empty);
recording.json says exactly what was run on what, for `ckptsim validate`.
"""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from pg_cluster import BIN, USER, Cluster, run_as

PORT = 5441
THROTTLE = "/sys/fs/cgroup/blkio"
THROTTLE_FILES = {"read_iops": "blkio.throttle.read_iops_device", "write_iops": "blkio.throttle.write_iops_device",
                  "read_bps": "blkio.throttle.read_bps_device", "write_bps": "blkio.throttle.write_bps_device"}
UNITS = {"": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "g": 1 << 30, "gb": 1 << 30}


class Stopped(Exception):
    pass


def on_signal(signum, _frame):
    raise Stopped(f"stopped by signal {signum}")


def bytes_of(text):
    """'40MB' -> 41943040 (PostgreSQL's and the throttle's units are powers of 1024)."""
    t = str(text).strip().lower()
    number = t.rstrip("kmgb")
    return int(float(number) * UNITS[t[len(number):]])


def sh(args, **kw):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kw).stdout


def read(path):
    with open(path) as f:
        return f.read().strip()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class Device:
    """The sparse file, its loop device with direct I/O, and the mounted ext4."""

    def __init__(self, work, size):
        self.image, self.mount = os.path.join(work, "disk.img"), os.path.join(work, "mnt")
        self.loop = None
        self.mounted = False
        with open(self.image, "wb") as f:
            f.truncate(bytes_of(size))

    def attach(self, commands):
        self.loop = sh(["losetup", "--find", "--show", "--direct-io=on", self.image]).strip()
        st = os.stat(self.loop)
        self.majmin = f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
        # No lazy init: ext4lazyinit would write the inode tables in the background during the run.
        mkfs = ["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", self.loop]
        sh(mkfs)
        os.makedirs(self.mount)
        sh(["mount", self.loop, self.mount])
        self.mounted = True
        commands += [f"losetup --find --show --direct-io=on {self.image}", " ".join(mkfs), f"mount {self.loop} MNT"]

    @property
    def name(self):
        return os.path.basename(self.loop)

    def queue(self):
        q = f"/sys/block/{self.name}/queue"
        keys = ["scheduler", "nr_requests", "max_sectors_kb", "max_hw_sectors_kb", "rotational", "wbt_lat_usec",
                "logical_block_size", "physical_block_size", "read_ahead_kb", "nomerges", "write_cache"]
        out = {k: read(f"{q}/{k}") for k in keys if os.path.exists(f"{q}/{k}")}
        out["dio"] = read(f"/sys/block/{self.name}/loop/dio")
        return out

    def detach(self):
        if self.mounted:
            subprocess.run(["umount", self.mount], check=False)
            self.mounted = False
        if self.loop:
            subprocess.run(["losetup", "-d", self.loop], check=False)
            self.loop = None
        if os.path.exists(self.image):
            os.remove(self.image)


class Throttle:
    """blk-throttle limits for one device at the root of the v1 blkio hierarchy."""

    def __init__(self, limits):
        self.limits = {k: v for k, v in limits.items() if v}
        self.majmin = None

    def set(self, majmin, commands):
        self.majmin = majmin
        for key, value in self.limits.items():
            write(os.path.join(THROTTLE, THROTTLE_FILES[key]), f"{majmin} {value}")
            commands.append(f"echo '{majmin} {value}' > {THROTTLE}/{THROTTLE_FILES[key]}")

    def remove(self):
        if self.majmin:
            for key in self.limits:  # 0 deletes the rule
                write(os.path.join(THROTTLE, THROTTLE_FILES[key]), f"{self.majmin} 0")
            self.majmin = None


def charged(majmin):
    """What blk-throttle charged to the root group for the device: {read_ios, write_ios, read_bytes, write_bytes}.
    iostat counts below the throttle and cannot show its queue; these count bios as they enter it."""
    out = {}
    for kind, file in [("ios", "blkio.throttle.io_serviced"), ("bytes", "blkio.throttle.io_service_bytes")]:
        for line in read(os.path.join(THROTTLE, file)).splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == majmin and parts[1] in ("Read", "Write"):
                out[f"{parts[1].lower()}_{kind}"] = int(parts[2])
    return out


class Sampler:
    """iostat -x of the loop device, /proc/meminfo's Dirty and Writeback, and what the throttle charged, each second."""

    def __init__(self, folder, device, majmin):
        self.folder, self.device, self.majmin = folder, device, majmin
        self.stop_event = threading.Event()

    def start(self):
        env = dict(os.environ, S_TIME_FORMAT="ISO")
        self.iostat_out = open(os.path.join(self.folder, "iostat.txt"), "w")
        self.iostat = subprocess.Popen(["iostat", "-x", "-t", "1", self.device], stdout=self.iostat_out, env=env)
        self.thread = threading.Thread(target=self.meminfo, daemon=True)
        self.thread.start()

    def meminfo(self):
        with open(os.path.join(self.folder, "meminfo.csv"), "w") as out, \
             open(os.path.join(self.folder, "blkio.csv"), "w") as blkio:
            out.write("time,dirty_kb,writeback_kb\n")
            blkio.write("time,read_ios,write_ios,read_bytes,write_bytes\n")
            next_at = time.time()
            while not self.stop_event.is_set():
                now = time.time()
                fields = dict(line.split(":", 1) for line in read("/proc/meminfo").splitlines())
                kb = lambda name: fields[name].strip().split()[0]
                out.write(f"{now:.3f},{kb('Dirty')},{kb('Writeback')}\n")
                c = charged(self.majmin)
                blkio.write(f"{now:.3f},{c.get('read_ios', 0)},{c.get('write_ios', 0)},"
                            f"{c.get('read_bytes', 0)},{c.get('write_bytes', 0)}\n")
                out.flush()
                blkio.flush()
                next_at += 1
                self.stop_event.wait(max(0, next_at - time.time()))

    def stop(self):
        self.stop_event.set()
        if hasattr(self, "iostat"):
            self.iostat.terminate()
            self.iostat.wait()
            self.iostat_out.close()
            self.thread.join()


def stats(cluster):
    sql = ("select json_build_object('pg_stat_bgwriter', (select row_to_json(b) from pg_stat_bgwriter b), "
           "'pg_stat_wal', (select row_to_json(w) from pg_stat_wal w), "
           "'pg_stat_database', (select row_to_json(d) from pg_stat_database d where datname = 'postgres'), "
           "'time', extract(epoch from now()))")
    return json.loads(cluster.query(sql))


def machine(device):
    vm = {f"vm.{n}": read(f"/proc/sys/vm/{n}") for n in sorted(os.listdir("/proc/sys/vm")) if n.startswith("dirty")}
    mem = dict(line.split(":", 1) for line in read("/proc/meminfo").splitlines())
    return {"kernel": os.uname().release, "cpus": os.cpu_count(), "ram_kb": int(mem["MemTotal"].split()[0]),
            "loop_device": device.name, "loop_queue": device.queue(), "sysctl": vm,
            "backing_file_system": sh(["findmnt", "-no", "FSTYPE,SOURCE", "-T", os.path.dirname(device.image)]).strip()}


def cleanup(sampler, throttle, dirty_restore, cluster, device, work, out):
    """Each step runs whatever the one before it did: a failure is printed, never left behind."""
    def step(what, action):
        try:
            action()
        except Exception as e:  # noqa: BLE001 - the remaining steps must still run
            print(f"record-storm: cleanup: {what}: {e}", file=sys.stderr)

    if sampler:
        step("samplers", sampler.stop)
    step("the cap", throttle.remove)
    if dirty_restore:
        # Writing one of the pair zeroes the other, and the bytes refuse 0: write the one that was in force.
        name = "dirty_background_bytes" if dirty_restore["dirty_background_bytes"] != "0" else "dirty_background_ratio"
        step(f"vm.{name}", lambda: write(f"/proc/sys/vm/{name}", dirty_restore[name]))
    if cluster:
        step("the cluster", cluster.stop)
        if os.path.exists(cluster.log):
            step("postgres.log", lambda: write(os.path.join(out, "postgres.log"), read(cluster.log) + "\n"))
    if device:
        step("the device", device.detach)
    step("the work folder", lambda: subprocess.run(["rm", "-rf", work], check=True))


def arguments():
    ap = argparse.ArgumentParser(prog="scripts/record-storm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the run's folder (made; refused if it holds anything)")
    for key in THROTTLE_FILES:
        ap.add_argument("--" + key.replace("_", "-"), default="0",
                        help="blk-throttle limit; 0 = none" + (" (bytes/s, e.g. 40MB)" if "bps" in key else ""))
    ap.add_argument("--shared-buffers", default="256MB")
    ap.add_argument("--checkpoint-flush-after", default="256kB")
    ap.add_argument("--max-wal-size", default="1GB")
    ap.add_argument("--checkpoint-timeout", default="60s")
    ap.add_argument("--pg", action="append", default=[], metavar="NAME=VALUE", help="any other setting")
    ap.add_argument("--scale", type=int, default=100)
    ap.add_argument("--pgbench", default="-N -M prepared -c 4 -j 2", help="the measured run's options")
    ap.add_argument("--duration", type=int, default=300, help="seconds of the measured run (-T)")
    ap.add_argument("--warmup", type=int, default=30, help="seconds of select-only before it")
    ap.add_argument("--dirty-background-bytes", default=None, help="vm.dirty_background_bytes during the run")
    ap.add_argument("--image-size", default="16GB", help="the loop device's (sparse) file")
    return ap.parse_args()


def main():
    args = arguments()
    if os.geteuid() != 0:
        sys.exit("record-storm: needs root (a loop device and the blkio throttle)")
    if not os.path.isdir(THROTTLE):
        sys.exit(f"record-storm: no cgroup v1 blkio hierarchy at {THROTTLE}")
    for tool in [f"{BIN}/postgres", "/usr/bin/iostat"]:
        if not os.path.exists(tool):
            sys.exit(f"record-storm: {tool} is missing (scripts/setup --measure installs it)")
    if os.path.exists(args.out) and os.listdir(args.out):
        sys.exit(f"record-storm: {args.out} exists and is not empty; give a new folder")
    if args.duration > 300:
        print("record-storm: note: the stored recordings are 5 minutes or less", file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)

    limits = {k: bytes_of(getattr(args, k)) for k in THROTTLE_FILES}
    settings = {"shared_buffers": args.shared_buffers, "checkpoint_flush_after": args.checkpoint_flush_after,
                "max_wal_size": args.max_wal_size, "checkpoint_timeout": args.checkpoint_timeout,
                "autovacuum": "off", "log_checkpoints": "on", "log_line_prefix": "%m [%p] "}
    for item in args.pg:
        name, _, value = item.partition("=")
        settings[name] = value

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    work = tempfile.mkdtemp(prefix="ckptsim-storm-", dir="/tmp")
    os.chmod(work, 0o755)
    commands, dirty_restore = [], {}
    device, throttle, cluster, sampler = None, Throttle(limits), None, None
    try:
        device = Device(work, args.image_size)
        device.attach(commands)
        # The server's log stays off the capped device, in a folder its user may write.
        logs = os.path.join(work, "log")
        os.makedirs(logs)
        shutil.chown(logs, USER)
        os.makedirs(os.path.join(device.mount, "pg"))
        cluster = Cluster(os.path.join(device.mount, "pg"), PORT, os.path.join(logs, "postgres.log"))
        cluster.initdb()
        commands.append(f"initdb -D {cluster.data} -A trust --no-sync")
        cluster.start(settings)
        commands.append("pg_ctl start -o '" + " ".join(f"-c {k}={shlex.quote(v)}" for k, v in settings.items()) + "'")
        init = cluster.pgbench + ["-i", "-q", "-s", str(args.scale), "postgres"]
        print(f"record-storm: pgbench -i -s {args.scale} (uncapped) ...", file=sys.stderr)
        cluster.run(init)
        cluster.query("checkpoint")
        sh(["sync"])
        commands += [shlex.join(init), "psql -c checkpoint", "sync"]

        if args.dirty_background_bytes is not None:
            for name in ["dirty_background_bytes", "dirty_background_ratio"]:
                dirty_restore[name] = read(f"/proc/sys/vm/{name}")
            value = bytes_of(args.dirty_background_bytes)
            write("/proc/sys/vm/dirty_background_bytes", str(value))
            commands.append(f"sysctl vm.dirty_background_bytes={value}")
        throttle.set(device.majmin, commands)

        pgbench = cluster.pgbench
        warm = pgbench + ["-n", "-S", "-M", "prepared", "-c", "4", "-j", "2", "-T", str(args.warmup), "postgres"]
        if args.warmup > 0:
            print(f"record-storm: {args.warmup} s of select-only (capped) ...", file=sys.stderr)
            cluster.run(warm)
            commands.append(shlex.join(warm))

        before = {**stats(cluster), "blkio_throttle_charged": charged(device.majmin)}
        # The root group's limits cap a task only while it is in the blkio root (cgroup v1 charges the
        # submitter: backends, the checkpointer, the flusher's kworkers).
        postmaster = read(os.path.join(cluster.data, "postmaster.pid")).split()[0]
        blkio_group = [l.split(":", 2)[2] for l in read(f"/proc/{postmaster}/cgroup").splitlines()
                       if l.split(":")[1] == "blkio"]
        if blkio_group != ["/"]:
            raise RuntimeError(f"the postmaster is in blkio cgroup {blkio_group}, not the root the cap is set on")
        sampler = Sampler(out, device.name, device.majmin)
        sampler.start()
        measured = pgbench + ["-n"] + shlex.split(args.pgbench) + [
            "-T", str(args.duration), "-P", "1", "--progress-timestamp", "postgres"]
        print(f"record-storm: pgbench {args.pgbench} -T {args.duration} (capped) ...", file=sys.stderr)
        started = time.time()
        done = run_as(USER, measured)
        sampler.stop()
        commands.append(shlex.join(measured))
        time.sleep(1.5)  # statistics reach the collector at transaction end and every bgwriter round
        after = {**stats(cluster), "blkio_throttle_charged": charged(device.majmin)}
        write(os.path.join(out, "progress.log"), done.stderr)
        write(os.path.join(out, "pgbench.out"), done.stdout)
        write(os.path.join(out, "stats_before.json"), json.dumps(before, indent=2) + "\n")
        write(os.path.join(out, "stats_after.json"), json.dumps(after, indent=2) + "\n")
        recording = {
            "recorded_by": "scripts/record-storm " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
            "commands": commands,
            "server": cluster.query("select version()"),
            "postgres": settings,
            "postgres_non_default": json.loads(cluster.query(
                "select json_object_agg(name, current_setting(name)) from pg_settings "
                "where source not in ('default', 'override')")),
            "scale": args.scale,
            "pgbench": {"options": args.pgbench, "duration_s": args.duration, "warmup_select_only_s": args.warmup,
                        "command": shlex.join(measured)},
            "blkio_throttle": {k: v for k, v in limits.items()},
            "measured_run_started": started,
            "machine": machine(device),
        }
        write(os.path.join(out, "recording.json"), json.dumps(recording, indent=2) + "\n")
    finally:
        cleanup(sampler, throttle, dirty_restore, cluster, device, work, out)
    print(f"record-storm: recorded in {out}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except Stopped as e:
        sys.exit(f"record-storm: {e}; the cap, the cluster and the device are removed")
