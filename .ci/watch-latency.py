#!/usr/bin/env python3
"""Edit-to-report latency of watch mode against `./mvnw -o -q test`, for the same edit of FencedStore.apply.

Alternates the stub of FencedStore.apply with a lesson-1 answer, and times each save until the report's
`Progress:` line appears; for watch mode it also counts the processor time its JVM spent on that edit, a figure
that other load on the machine does not inflate. Restores the file at the end. Usage: python3 .ci/watch-latency.py [watch-edits] [maven-edits]
"""
import os, queue, signal, statistics, subprocess, sys, threading, time

EXERCISE = "exercises/src/main/java/fencingkoans/store/FencedStore.java"
STUB = """        throw new NotWrittenYet("1.1", "exercises/src/main/java/fencingkoans/store/FencedStore.java",
                "FencedStore.apply");
"""
ANSWER = """        long installed = ledger.installedGeneration(request.resource()).orElseThrow();
        if (request.generation() != installed) {
            return ApplyResult.Rejected.stale(request.generation(), installed);
        }
        return new ApplyResult.Applied(ledger.addToValue(request.resource(), request.delta()));
"""


def lines_of(process):
    found = queue.Queue()
    def read():
        for line in process.stdout:
            found.put((time.monotonic(), line.rstrip("\n")))
        found.put((time.monotonic(), None))
    threading.Thread(target=read, daemon=True).start()
    return found


def until_progress(found, timeout=300):
    while True:
        when, line = found.get(timeout=timeout)
        if line is None:
            raise SystemExit("the run ended without a Progress line")
        if line.startswith("Progress:"):
            return when, line


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def save(original, edit):
    with open(EXERCISE, "w") as f:
        f.write(original if edit % 2 == 0 else original.replace(STUB, ANSWER))
    return time.monotonic()


def main():
    watch_edits = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    maven_edits = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print("load average before:", open("/proc/loadavg").read().split()[:3], flush=True)
    original = open(EXERCISE).read()
    assert STUB in original, "run this on the shipped stub of " + EXERCISE
    watch, watch_cpu, maven = [], [], []
    try:
        process = subprocess.Popen(["./mvnw", "-o", "-q", "test-compile", "exec:java", "-Pwatch"],
                                   stdout=subprocess.PIPE, text=True, start_new_session=True)
        found = lines_of(process)
        until_progress(found)
        for edit in range(1, watch_edits + 1):
            time.sleep(1)
            cpu_before = cpu_seconds(process.pid)
            saved = save(original, edit)
            shown, line = until_progress(found)
            watch.append(shown - saved)
            watch_cpu.append(cpu_seconds(process.pid) - cpu_before)
            print(f"watch edit {edit}: {shown - saved:.3f} s, processor {watch_cpu[-1]:.2f} s  ({line})", flush=True)
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
        for edit in range(1, maven_edits + 1):
            saved = save(original, edit)
            run = subprocess.Popen(["./mvnw", "-o", "-q", "test"], stdout=subprocess.PIPE, text=True)
            shown, line = until_progress(lines_of(run))
            run.wait()
            maven.append(shown - saved)
            print(f"maven edit {edit}: {shown - saved:.3f} s  ({line})", flush=True)
    finally:
        with open(EXERCISE, "w") as f:
            f.write(original)
    print(f"watch mode: median {statistics.median(watch):.3f} s over {len(watch)} edits "
          f"(min {min(watch):.3f}, max {max(watch):.3f})")
    print(f"watch mode processor time per edit: median {statistics.median(watch_cpu):.2f} s")
    print("load average after:", open("/proc/loadavg").read().split()[:3])
    if maven:
        print(f"./mvnw -o -q test: median {statistics.median(maven):.3f} s over {len(maven)} edits "
              f"(min {min(maven):.3f}, max {max(maven):.3f})")
        print(f"watch mode is {statistics.median(maven) / statistics.median(watch):.1f} times faster")


if __name__ == "__main__":
    main()
