#!/usr/bin/env python3
"""Edit-to-report latency of watch mode, in one watch process. Each save is timed until the report's `Progress:`
line appears, with the processor time its JVM spent on it (a figure that other load on the machine inflates less)
and the test time (from the "compiled" line to the report). Every file is put back at the end.

python3 .ci/watch-latency.py [edits per point] [maven edits]: as the learner advances. At the first koan it
alternates the stub of FencedStore.apply with a lesson-1 answer. Then it saves the reference's store files of
lessons 1 to 5 into exercises/ and alternates a blank line at the end of FencedStore. Then it saves every other file
of the reference (lesson 6's SQL and lesson 7's LeaseIssuer among them) and alternates that blank line again: every
koan runs and passes, lesson 7's ensemble included (lesson 6 is skipped unless FENCING_PG_URL names a server).
Optionally it times `./mvnw -o -q test` for the first koan's edit too.

python3 .ci/watch-latency.py --sql [saves per point]: a save of lesson 6's SQL. With lessons 1 to 5 and
apply_request.sql solved, it alternates grants.sql between its stub (the run stops at
Lesson6PostgresKoans#theWorkersDirectWritesFailWithInsufficientPrivilege) and the reference's without the REVOKE on
the function (it stops at Lesson6PostgresKoans#aRoleWithoutTheGrantCannotCallTheFunction), so every run goes
through lesson 6 and none unlocks lesson 7; then, for comparison, the blank line of FencedStore.java at the same
point. Needs FENCING_PG_URL.
"""
import os, re, statistics, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_session import ANSWER, EXERCISE, STUB, Watch, lines_of, until_progress

STORE = os.path.dirname(EXERCISE)
PG = "exercises/src/main/resources/fencingkoans/pg"
GRANTS = os.path.join(PG, "grants.sql")
REVOKE = "REVOKE ALL ON FUNCTION fencing.apply_request(text, bigint, text, bigint) FROM PUBLIC;\n"


def reference(path):
    return open(path.replace("exercises/", "solutions/", 1)).read()


def exercise_files():
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk("exercises/src/main") for name in names)


def lessons_1_to_5_files():
    """The store files with stubs for koans of lessons 1 to 5: all but lesson 7's LeaseIssuer."""
    return [path for path in exercise_files() if os.path.dirname(path) == STORE
            and not path.endswith("LeaseIssuer.java") and "throw new NotWrittenYet" in open(path).read()]


def load_average(when):
    print(f"load average {when}:", open("/proc/loadavg").read().split()[:3], flush=True)


def summary(name, runs):
    wall = [run.edit_to_report for run in runs]
    # A save of SQL compiles nothing, so its runs have no test time of their own.
    tested = [run.test_time for run in runs if run.test_time is not None]
    print(f"{name}: edit to report median {statistics.median(wall):.3f} s over {len(runs)} saves "
          f"(min {min(wall):.3f}, max {max(wall):.3f}); "
          + (f"test time median {statistics.median(tested):.3f} s; " if tested else "")
          + f"processor time median {statistics.median(run.cpu for run in runs):.2f} s; {runs[-1].progress}")
    return statistics.median(wall)


def timed_saves(watch, name, edits, text_of_edit, path=EXERCISE):
    runs = []
    for edit in range(1, edits + 1):
        runs.append(watch.save(path, text_of_edit(edit)))
        print(f"{name}, save {edit}: {runs[-1].edit_to_report:.3f} s, processor {runs[-1].cpu:.2f} s  "
              f"({runs[-1].progress})", flush=True)
    return runs


def blank_line_or_not(edit):
    return reference(EXERCISE) + ("\n" if edit % 2 else "")


def as_the_learner_advances(edits, maven_edits):
    if not os.environ.get("FENCING_PG_URL"):
        print("FENCING_PG_URL is not set: lesson 6 is skipped at every point", flush=True)
    original = open(EXERCISE).read()
    assert STUB in original, "run this on the shipped stub of " + EXERCISE
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
    load_average("after")
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


def saving_lesson_6_sql(saves):
    if not os.environ.get("FENCING_PG_URL"):
        raise SystemExit("set FENCING_PG_URL to a superuser's JDBC URL: lesson 6 must run, not be skipped")
    stub = open(GRANTS).read()
    assert REVOKE in reference(GRANTS), "the reference's grants.sql no longer has " + REVOKE
    without_the_revoke = reference(GRANTS).replace(REVOKE, "")
    with Watch("-o") as watch:
        for path in [os.path.join(STORE, name) for name in os.listdir(STORE)] + [os.path.join(PG, "apply_request.sql")]:
            watch.save(path, reference(path))
        sql = timed_saves(watch, "grants.sql", saves, lambda save: without_the_revoke if save % 2 else stub, GRANTS)
        java = timed_saves(watch, "FencedStore.java", saves, blank_line_or_not)
    summary("watch mode, a save of grants.sql at either of its koans", sql)
    summary("watch mode, a save of FencedStore.java with grants.sql still to write", java)
    load_average("after")


def main():
    counts = [int(arg) for arg in sys.argv[1:] if arg != "--sql"]
    load_average("before")
    if "--sql" in sys.argv:
        saving_lesson_6_sql(counts[0] if counts else 8)
    else:
        as_the_learner_advances(counts[0] if counts else 8, counts[1] if len(counts) > 1 else 0)

if __name__ == "__main__":
    main()
