#!/usr/bin/env python3
"""Where the client's event-loop CPU goes: a breakdown of `perf script` stacks of one thread name.

Record (client pinned to core 0 by oracle.sh; the JVM writes /tmp/perf-<pid>.map at its exit so that perf can name
the JIT's frames):

    CAPSTREAM_JAVA_OPTS="-XX:+UseZGC -XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions \\
        -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" SCENARIOS=c64x2560 bench/fidelity/oracle.sh &
    # once the client's run has started (its progress lines), for a few seconds:
    perf record -C 0 -g -o loop.perf.data -- sleep 8
    # after the client has exited:
    perf script -i loop.perf.data --comm vert.x-eventloo -F tid,ip,sym > loop.stacks
    bench/fidelity/loop_profile.py loop.stacks jackson JsonFactory.createParser safeBuffer ClosedLoop

Prints each sample class as a share of the thread's samples (compiled Java, each syscall, page faults, the
interpreter), then, for each further argument, the share of samples with a frame whose name contains it (inclusive).
"""
import collections
import sys


def read_stacks(path):
    """Yields one list of frame names per sample, leaf first."""
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if line[0] not in " \t":  # a sample's header line (tid)
                if cur:
                    yield cur
                cur = []
                continue
            parts = line.strip().split(None, 1)
            if cur is not None:
                cur.append(parts[1] if len(parts) > 1 else parts[0])
    if cur:
        yield cur


def classify(stack):
    joined = " | ".join(stack)
    if "page_fault" in joined:
        return "page fault"
    if "entry_SYSCALL" in joined or "do_syscall" in joined:
        for frame in stack:
            if frame.startswith("__x64_sys_") or frame.startswith("__do_sys"):
                return "syscall " + frame
        return "syscall (other)"
    if "Interpreter" in stack[0]:
        return "interpreter"
    return "compiled Java and the JVM"


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    stacks = list(read_stacks(argv[1]))
    if not stacks:
        print("no samples in " + argv[1], file=sys.stderr)
        return 1
    n = len(stacks)
    print(f"samples {n}")
    classes = collections.Counter(classify(s) for s in stacks)
    for name, count in classes.most_common(20):
        print(f"{100 * count / n:5.1f}%  {name}")
    for key in argv[2:]:
        hits = sum(1 for s in stacks if any(key in frame for frame in s))
        print(f"{100 * hits / n:5.1f}%  inclusive: {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
