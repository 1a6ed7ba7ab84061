#!/usr/bin/env python3
"""Edit-to-report latency of watch mode, in one watch process: at the first koan and with lessons 1 to 5
solved.

At the first koan it alternates the stub of FencedStore.apply with a lesson-1 answer; then it saves the reference's
store files of lessons 1 to 5 into exercises/ and alternates a blank line at the end of FencedStore. Each save is timed until
the report's `Progress:` line appears, with the processor time its JVM spent on it (a figure that other load on
the machine inflates less) and the test time (from the "compiled" line to the report). Optionally it times
`./mvnw -o -q test` for the first koan's edit too. Every file is put back at the end.
Usage: python3 .ci/watch-latency.py [edits per point] [maven edits]
"""
import os, statistics, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_session import ANSWER, EXERCISE, STUB, Watch, lines_of, until_progress

REFERENCE = EXERCISE.replace("exercises/", "solutions/", 1)


def lessons_1_to_5_files():
    """The store files with stubs for koans of lessons 1 to 5: all but lesson 7's LeaseIssuer."""
    folder = os.path.dirname(EXERCISE)
    return sorted(name for name in os.listdir(folder) if name != "LeaseIssuer.java"
                  and "throw new NotWrittenYet" in open(os.path.join(folder, name)).read())


def summary(name, runs):
    wall = statistics.median(run.edit_to_report for run in runs)
    print(f"{name}: edit to report median {wall:.3f} s over {len(runs)} saves "
          f"(min {min(run.edit_to_report for run in runs):.3f}, max {max(run.edit_to_report for run in runs):.3f}); "
          f"test time median {statistics.median(run.test_time or 0 for run in runs):.3f} s; "
          f"processor time median {statistics.median(run.cpu for run in runs):.2f} s; {runs[-1].progress}")
    return wall


def main():
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    maven_edits = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    print("load average before:", open("/proc/loadavg").read().split()[:3], flush=True)
    original = open(EXERCISE).read()
    assert STUB in original, "run this on the shipped stub of " + EXERCISE
    at_first_koan, solved = [], []
    with Watch("-o") as watch:
        for edit in range(1, edits + 1):
            at_first_koan.append(watch.save(EXERCISE, original.replace(STUB, ANSWER) if edit % 2 else original))
            print(f"first koan, save {edit}: {at_first_koan[-1].edit_to_report:.3f} s", flush=True)
        for name in lessons_1_to_5_files():
            watch.save(os.path.join(os.path.dirname(EXERCISE), name), open(os.path.join(os.path.dirname(REFERENCE), name)).read())
        reference = open(REFERENCE).read()
        for edit in range(1, edits + 1):
            solved.append(watch.save(EXERCISE, reference + ("\n" if edit % 2 else "")))
            print(f"lessons 1-5 solved, save {edit}: {solved[-1].edit_to_report:.3f} s", flush=True)
    first = summary("watch mode at the first koan", at_first_koan)
    last = summary("watch mode with lessons 1-5 solved", solved)
    print(f"solved / first koan: {last / first:.2f}")
    print("load average after:", open("/proc/loadavg").read().split()[:3])
    maven = []
    try:
        for edit in range(1, maven_edits + 1):
            with open(EXERCISE, "w") as f:
                f.write(original.replace(STUB, ANSWER) if edit % 2 else original)
            saved = time.monotonic()
            run = subprocess.Popen(["./mvnw", "-o", "-q", "test"], stdout=subprocess.PIPE, text=True)
            maven.append(until_progress(lines_of(run))[-1][0] - saved)
            run.wait()
    finally:
        with open(EXERCISE, "w") as f:
            f.write(original)
    if maven:
        print(f"./mvnw -o -q test at the first koan: median {statistics.median(maven):.3f} s over {len(maven)} edits")


if __name__ == "__main__":
    main()
