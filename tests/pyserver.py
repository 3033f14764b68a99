"""One python3 for the suite's many small checks (tests/run.sh starts it).

A python3 costs some 50ms of CPU to start and to import json and re, and
the tests ask for hundreds of checks (a JSON document against the schema,
an SVG's series, a report's figures). This process starts once; each
request (tests/lib.sh, pyrun) is run in a process forked from it, as
`python3 SCRIPT ARGS...` (or -c CODE, or - for a script on standard input)
would run it: its own argv, working directory,
standard input, the exit status SystemExit gives, a traceback and status 1
for an exception. What the child prints goes to two files the client
prints; its exit status and CPU seconds are written to the client's FIFO
(the CPU is added to the test's figure by tests/run.sh).

    python3 tests/pyserver.py FIFO

FIFO is made here; a request is one line, the path of a file (one write of
less than PIPE_BUF bytes, so that requests of tests running at once never
mix; the file has no size limit) that holds fields each ending in a NUL:
REPLY (a FIFO the client reads), OUT and ERR (files
for standard output and error), CWD, STDIN (a path to open as standard
input), SCRIPT and its arguments. A request that cannot be read is dropped
(its client gets exit status 1), never the server. The environment is the suite's, not the
client's: the checks run here read only their arguments and files.
"""
import os
import signal
import sys
import traceback

# what the checks import, imported once here (each child starts with them)
import json  # noqa: F401
import re  # noqa: F401
import runpy
import struct  # noqa: F401
import zlib  # noqa: F401
import xml.etree.ElementTree  # noqa: F401


def reap(_sig, _frame):
    # the children's CPU is then counted in this process's children times
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def run_script(out, err, cwd, stdin, script, args):
    """In the grandchild: the script as python3 would run it; never returns."""
    code = 1
    try:
        os.chdir(cwd)
        fd = os.open(stdin, os.O_RDONLY)
        os.dup2(fd, 0)
        fd2 = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd2, 1)
        fd3 = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd3, 2)
        for f in (fd, fd2, fd3):
            if f > 2:
                os.close(f)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        try:
            if script in ("-c", "-"):
                # python3 -c CODE ARGS..., python3 - ARGS... (the script on standard input)
                src = args.pop(0) if script == "-c" else sys.stdin.read()
                sys.argv = [script, *args]
                sys.path[0] = ""
                exec(compile(src, "<string>" if script == "-c" else "<stdin>", "exec"),
                     {"__name__": "__main__", "__builtins__": __builtins__})
            else:
                sys.argv = [script, *args]
                sys.path[0] = os.path.dirname(os.path.abspath(script))
                runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as e:
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code & 255
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:
            traceback.print_exc()
            code = 1
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except Exception:
                code = code or 1
    except BaseException:
        try:
            os.write(2, traceback.format_exc().encode())
        except OSError:
            pass
    os._exit(code)


def child(fields):
    """One request: the script runs in a grandchild, whatever way it ends
    (os._exit, a signal: 128 + its number, as the shell says), and this
    process tells the client its exit status and CPU seconds."""
    reply, out, err, cwd, stdin, script, *args = fields
    code, cpu = 1, 0.0
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        pid = os.fork()
        if pid == 0:
            run_script(out, err, cwd, stdin, script, args)
        _, status, ru = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code < 0:
            code = 128 - code
        cpu = ru.ru_utime + ru.ru_stime
    finally:
        with open(reply, "w") as r:
            r.write("%d %.3f\n" % (code, cpu))
        os._exit(0)


def main():
    path = sys.argv[1]
    os.mkfifo(path, 0o600)
    fd = os.open(path, os.O_RDWR)  # a writer of its own: no end of file between requests
    signal.signal(signal.SIGCHLD, reap)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    print("ready", flush=True)
    buf = b""
    while True:
        data = os.read(fd, 65536)
        if not data:
            break
        *lines, buf = (buf + data).split(b"\n")
        for line in lines:
            try:
                with open(line, "rb") as f:
                    fields = [p.decode("utf-8", "surrogateescape") for p in f.read().split(b"\0")[:-1]]
            except OSError:
                fields = []
            if os.fork() == 0:
                if len(fields) < 6:
                    refuse(line)
                child(fields)


def refuse(line):
    """A request file that cannot be read: its client (REPLY is the file's name without .q) gets status 1."""
    try:
        if line.endswith(b".q"):
            with open(line[:-2], "w") as r:
                r.write("1 0.000\n")
    finally:
        os._exit(0)


if __name__ == "__main__":
    main()
