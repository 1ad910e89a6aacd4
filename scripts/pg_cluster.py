"""A throw-away PostgreSQL 15 cluster, as scripts/validate_pg.py and scripts/predict_this_machine.py run one.

The cluster lives in a folder of its own (data/ and sock/ under it), runs as
the `postgres` user that Debian's postgresql-15 package creates (never as
root), listens on a unix socket only and is started with `-c` settings, so
no configuration file of the machine is read or changed.
"""
import os
import pwd
import shlex
import shutil
import subprocess

BIN = "/usr/lib/postgresql/15/bin"
USER = "postgres"


def run_as(user, args, **kw):
    return subprocess.run(["runuser", "-u", user, "--"] + args, check=True, text=True, capture_output=True, **kw)


class Cluster:
    def __init__(self, folder, port, log):
        pwd.getpwnam(USER)
        os.chmod(folder, 0o755)
        self.folder, self.port, self.log = folder, port, log
        self.data, self.sock = os.path.join(folder, "data"), os.path.join(folder, "sock")
        os.makedirs(self.sock)
        shutil.chown(folder, USER)
        shutil.chown(self.sock, USER)
        self.psql = [f"{BIN}/psql", "-h", self.sock, "-p", str(port), "-X", "-At", "-d", "postgres"]
        self.pgbench = [f"{BIN}/pgbench", "-h", self.sock, "-p", str(port)]
        self.started = False

    def run(self, args, **kw):
        return run_as(USER, args, **kw)

    def initdb(self):
        self.run([f"{BIN}/initdb", "-D", self.data, "-A", "trust", "--no-sync"])

    def start(self, settings):
        opts = f"-c listen_addresses='' -c unix_socket_directories={self.sock} -p {self.port}"
        for k, v in settings.items():
            opts += f" -c {k}={shlex.quote(str(v))}"  # pg_ctl hands -o to a shell
        self.run([f"{BIN}/pg_ctl", "-D", self.data, "-w", "-l", self.log, "-o", opts, "start"])
        self.started = True

    def stop(self):
        if self.started:
            self.run([f"{BIN}/pg_ctl", "-D", self.data, "-w", "-m", "fast", "stop"])
            self.started = False

    def query(self, sql):
        return self.run(self.psql + ["-c", sql]).stdout.strip()
