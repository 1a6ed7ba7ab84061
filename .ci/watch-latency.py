#!/usr/bin/env python3
"""Edit-to-report latency of watch mode as the learner advances, in one watch process: at the first koan, with
lessons 1 to 5 solved, and with every lesson solved.

At the first koan it alternates the stub of FencedStore.apply with a lesson-1 answer. Then it saves the reference's store
files of lessons 1 to 5 into exercises/ and alternates a blank line at the end of FencedStore. Then it saves every
other file of the reference (lesson 6's SQL and lesson 7's LeaseIssuer among them) and alternates that blank line
again: every koan runs and passes, lesson 7's ensemble included (lesson 6 is skipped unless FENCING_PG_URL names a
server). Each save is timed until the report's `Progress:` line appears, with the processor time its JVM spent on
it (a figure that other load on the machine inflates less) and the test time (from the "compiled" line to the
report). Optionally it times `./mvnw -o -q test` for the first koan's edit too. Every file is put back at the end.
Usage: python3 .ci/watch-latency.py [edits per point] [maven edits]
"""
import os, re, statistics, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_session import ANSWER, EXERCISE, STUB, Watch, lines_of, until_progress

STORE = os.path.dirname(EXERCISE)


def reference(path):
    return open(path.replace("exercises/", "solutions/", 1)).read()


def exercise_files():
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk("exercises/src/main") for name in names)


def lessons_1_to_5_files():
    """The store files with stubs for koans of lessons 1 to 5: all but lesson 7's LeaseIssuer."""
    return [path for path in exercise_files() if os.path.dirname(path) == STORE
            and not path.endswith("LeaseIssuer.java") and "throw new NotWrittenYet" in open(path).read()]


def summary(name, runs):
    wall = statistics.median(run.edit_to_report for run in runs)
    print(f"{name}: edit to report median {wall:.3f} s over {len(runs)} saves "
          f"(min {min(run.edit_to_report for run in runs):.3f}, max {max(run.edit_to_report for run in runs):.3f}); "
          f"test time median {statistics.median(run.test_time or 0 for run in runs):.3f} s; "
          f"processor time median {statistics.median(run.cpu for run in runs):.2f} s; {runs[-1].progress}")
    return wall


def timed_saves(watch, name, edits, text_of_edit):
    runs = []
    for edit in range(1, edits + 1):
        runs.append(watch.save(EXERCISE, text_of_edit(edit)))
        print(f"{name}, save {edit}: {runs[-1].edit_to_report:.3f} s", flush=True)
    return runs


def main():
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    maven_edits = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    print("load average before:", open("/proc/loadavg").read().split()[:3], flush=True)
    if not os.environ.get("FENCING_PG_URL"):
        print("FENCING_PG_URL is not set: lesson 6 is skipped at every point", flush=True)
    original = open(EXERCISE).read()
    assert STUB in original, "run this on the shipped stub of " + EXERCISE
    blank_line_or_not = lambda edit: reference(EXERCISE) + ("\n" if edit % 2 else "")
    with Watch("-o") as watch:
        first = timed_saves(watch, "first koan", edits,
                            lambda edit: original.replace(STUB, ANSWER) if edit % 2 else original)
        for path in lessons_1_to_5_files():
            watch.save(path, reference(path))
        five = timed_saves(watch, "lessons 1-5 solved", edits, blank_line_or_not)
        for path in exercise_files():
            if path != EXERCISE:
                watch.save(path, reference(path))
        every = timed_saves(watch, "every lesson solved", edits, blank_line_or_not)
    at_first = summary("watch mode at the first koan", first)
    summary("watch mode with lessons 1-5 solved", five)
    solved = summary("watch mode with every lesson solved", every)
    passed, runnable = re.match(r"Progress: (\d+)/(\d+)", every[-1].progress).groups()
    assert passed == runnable, "the reference did not pass every koan:\n" + "\n".join(every[-1].lines[-30:])
    print(f"every lesson solved / first koan: {solved / at_first:.2f}")
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
