#!/usr/bin/env bash
# --auto --destructive with a known claim writes its class step as --class
# does: by a second descriptor of the device, opened through /proc/self/fd
# without O_SYNC (O_DIRECT: each write done when the device acknowledges
# it), flushed once (fdatasync) after the step's last write; every other
# step (capacity, the open-AU and FAT runs) writes by the descriptor opened
# O_RDWR|O_SYNC, as the original's options do, and none of them while the
# class step's is open.
. "$(dirname "$0")/../lib.sh"
need_tool strace
need_tool python3
# an image of 1GiB, sparse: room for the class area whatever erase size -a finds on a file
loop=$T/card.img
truncate -s 1G "$loop"

# -y: each descriptor with the file it refers to; the dups the save and restore take are followed
run traced -f -qq -y -o "$T/trace" \
	-e trace=open,openat,openat2,fcntl,dup,dup2,dup3,close,pwrite64,pwritev,pwritev2,io_submit,fsync,fdatasync \
	"$FB" --auto --destructive --claim=C10 "$loop"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit $rc: $errout"
[[ $out == *$'\n  class '* ]] || fail "no class step ran: $(printf '%s' "$out" | head -n 12)"

why=$(python3 - "$T/trace" "$loop" <<'PY'
import re, sys
def bad(why):	# the reason on standard output, for fail
    print(why)
    sys.exit(1)
trace, loop = sys.argv[1], sys.argv[2]
fam = {}		# descriptor -> "sync" / "nosync" (the file description it shares)
sync_fd = None
writes = {"sync": [0, 0, 0], "nosync": 0}	# sync: before, while and after the nosync one is open
state = 0		# 0 before the second descriptor, 1 while it is open, 2 after
nosync_fds = set()
last_nosync_write = flush_after = None
fd_re = r"(\d+)<([^>]*)>"
for n, line in enumerate(open(trace)):
    m = re.match(r"\d+ +(\w+)\((.*)\) += (-?\d+)(?:<([^>]*)>)?", line)
    if not m:
        continue
    call, args, ret, retpath = m.group(1), m.group(2), int(m.group(3)), m.group(4)
    if call.startswith("open") and ret >= 0:
        path = re.search(r'"([^"]*)"', args).group(1)
        if path == loop and "O_RDWR" in args:
            if "O_SYNC" not in args:
                bad("the run opened %s for writing without O_SYNC: %s" % (loop, line.strip()))
            fam[ret] = "sync"
            sync_fd = ret
        elif path.startswith("/proc/self/fd/") and retpath == loop:
            src = int(path.rsplit("/", 1)[1])
            if fam.get(src) != "sync":
                bad("reopened a descriptor that is not the device's: " + line.strip())
            if "O_SYNC" in args or "O_DSYNC" in args or "O_DIRECT" not in args or "O_RDWR" not in args:
                bad("the class step's descriptor is not O_RDWR|O_DIRECT without O_SYNC: " + line.strip())
            fam[ret] = "nosync"
            nosync_fds.add(ret)
            state = 1
    elif call in ("fcntl", "dup", "dup2", "dup3") and ret >= 0 and (call != "fcntl" or "F_DUPFD" in args):
        src = int(re.match(r"(\d+)", args).group(1))
        if src in fam:
            fam[ret] = fam[src]
    elif call == "close" and ret == 0:
        fd = int(re.match(r"(\d+)", args).group(1))
        if fd in nosync_fds and fam.get(fd) == "nosync":
            nosync_fds.discard(fd)
            if not nosync_fds:
                state = 2
        fam.pop(fd, None)
    elif call in ("pwrite64", "pwritev", "pwritev2", "io_submit") and ret > 0:
        fd = int(re.match(r"(\d+)", args).group(1)) if call != "io_submit" else None
        if call == "io_submit":	# the descriptor is in each iocb: aio_fildes=N
            fds = {int(x) for x in re.findall(r"aio_fildes=(\d+)", args)}
            fd = fds.pop() if len(fds) == 1 else None
        f = fam.get(fd)
        if f == "sync":
            writes["sync"][state] += 1
        elif f == "nosync":
            writes["nosync"] += 1
            last_nosync_write, flush_after = n, None
    elif call in ("fdatasync", "fsync") and ret == 0:
        fd = int(re.match(r"(\d+)", args).group(1))
        if fam.get(fd) == "nosync" and last_nosync_write is not None:
            flush_after = n
if sync_fd is None:
    bad("strace saw no open of %s for writing: the trace is blind" % loop)
if not nosync_fds and state == 0:
    bad("no second descriptor without O_SYNC was opened for the class step")
if writes["nosync"] == 0:
    bad("nothing was written by the descriptor without O_SYNC")
if writes["sync"][0] == 0:
    bad("the steps before the class step wrote nothing by the O_SYNC descriptor")
if writes["sync"][1]:
    bad("%d writes by the O_SYNC descriptor while the class step's was open" % writes["sync"][1])
if flush_after is None:
    bad("no fdatasync of the class step's writes after its last one")
PY
) || fail "$why"
exit 0
