#!/usr/bin/env bash
# From its first moment a run answers a stop signal: stopped before any I/O
# (here while it waits for udev's shared lock on the image: systemd-udevd
# holds one while it probes a disk, and a run waits for it, a few seconds at
# most, instead of refusing), --capacity --json still prints one document,
# state "interrupted", exit 130 (an INT in its first ~50 ms used to leave no
# document); and the image is untouched. Without the signal the run goes on
# once udev lets go.
. "$(dirname "$0")/../lib.sh"
need_tool python3
img=$(random_image img 16M)
cp "$img" "$T/orig"
python3 - "$FB" "$img" "$T" <<'PY' || fail "see above"
import ctypes, fcntl, json, os, signal, subprocess, sys, time
fb, img, tmp = sys.argv[1:]

def udev_holder():
    """A process called udevadm holding a shared lock on img until killed; its pid."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ctypes.CDLL(None).prctl(15, b"udevadm", 0, 0, 0)	# PR_SET_NAME
        fd = os.open(img, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_SH)
        os.write(w, b"x")
        while True:
            signal.pause()
    os.read(r, 1)	# the lock is held
    return pid

def start(*args):
    return subprocess.Popen([fb, *args, img], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

def waiting(p):
    """Until p sleeps between tries of the lock (True), or ends (False)."""
    while p.poll() is None:
        try:
            if "nanosleep" in open(f"/proc/{p.pid}/wchan").read():
                return True
        except OSError:
            pass
        time.sleep(0.01)
    return False

holder = udev_holder()
p = start("--capacity", "--json")
if not waiting(p):
    out, err = p.communicate()
    sys.exit(f"FAIL: the run did not wait for udev's lock: exit {p.returncode}: {err.decode()[:300]}")
p.send_signal(signal.SIGINT)
out, err = p.communicate()
os.kill(holder, signal.SIGKILL)
os.waitpid(holder, 0)
if p.returncode != 130:
    sys.exit(f"FAIL: SIGINT before any I/O: exit {p.returncode}, want 130: {err.decode()[:300]}")
try:
    doc = json.loads(out)
except ValueError:
    sys.exit(f"FAIL: no JSON document after SIGINT before any I/O: {out.decode()[:300]!r}")
if doc["status"]["state"] != "interrupted" or doc["test"] != "capacity":
    sys.exit(f"FAIL: the document says {doc['status']}, test {doc['test']}")
open(os.path.join(tmp, "doc.json"), "wb").write(out)

holder = udev_holder()
p = start("--capacity")
if not waiting(p):
    sys.exit("FAIL: the second run did not wait for udev's lock")
os.kill(holder, signal.SIGKILL)
os.waitpid(holder, 0)
out, err = p.communicate()
if p.returncode != 0 or not out.startswith(b"genuine"):
    sys.exit(f"FAIL: once udev let go: exit {p.returncode}: {err.decode()[:300]} {out.decode()[:200]}")
PY
expect_schema "$T/doc.json" "the document of a run interrupted before any I/O"
cmp -s "$img" "$T/orig" || fail "the image changed"
exit 0
