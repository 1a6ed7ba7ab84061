#!/usr/bin/env python3
"""Edit-to-report latency of watch mode for a save of lesson 6's SQL, timed as .ci/watch-latency.py times a Java
save: from the save until the report's `Progress:` line, with the processor time the watch JVM spent on it.

In one watch process it plays a learner who has done lessons 1 to 5 and apply_request.sql (saving the
reference's files into exercises/) and works on grants.sql: each timed save alternates it between its stub
(the run stops at Lesson6PostgresKoans#theWorkersDirectWritesFailWithInsufficientPrivilege) and the reference's
without the REVOKE on the function (it stops at Lesson6PostgresKoans#aRoleWithoutTheGrantCannotCallTheFunction), so
every run goes through lesson 6 and none unlocks lesson 7. Then, for comparison, it alternates a blank line at
the end of FencedStore.java (a Java save at the same point). Needs FENCING_PG_URL. Every file is put back at the
end. Usage: python3 .ci/watch-latency-sql.py [saves per point]
"""
import os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_session import EXERCISE, Watch

STORE = os.path.dirname(EXERCISE)
PG = "exercises/src/main/resources/fencingkoans/pg"
GRANTS = os.path.join(PG, "grants.sql")


def reference(path):
    return open(path.replace("exercises/", "solutions/", 1)).read()


def summary(name, runs):
    wall = [run.edit_to_report for run in runs]
    print(f"{name}: edit to report median {statistics.median(wall):.3f} s over {len(runs)} saves "
          f"(min {min(wall):.3f}, max {max(wall):.3f}); processor time median "
          f"{statistics.median(run.cpu for run in runs):.2f} s; last {runs[-1].progress}")


def main():
    saves = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    if not os.environ.get("FENCING_PG_URL"):
        raise SystemExit("set FENCING_PG_URL to a superuser's JDBC URL: lesson 6 must run, not be skipped")
    print("load average before:", open("/proc/loadavg").read().split()[:3], flush=True)
    stub = open(GRANTS).read()
    revoke = "REVOKE ALL ON FUNCTION fencing.apply_request(text, bigint, text, bigint) FROM PUBLIC;\n"
    assert revoke in reference(GRANTS), "the reference's grants.sql no longer has " + revoke
    without_the_revoke = reference(GRANTS).replace(revoke, "")
    sql, java = [], []
    with Watch("-o") as watch:
        for path in [os.path.join(STORE, name) for name in os.listdir(STORE)] + [os.path.join(PG, "apply_request.sql")]:
            watch.save(path, reference(path))
        for save in range(1, saves + 1):
            sql.append(watch.save(GRANTS, without_the_revoke if save % 2 else stub))
            print(f"grants.sql, save {save}: {sql[-1].edit_to_report:.3f} s, processor {sql[-1].cpu:.2f} s  "
                  f"({sql[-1].progress})", flush=True)
        for save in range(1, saves + 1):
            java.append(watch.save(EXERCISE, reference(EXERCISE) + ("\n" if save % 2 else "")))
            print(f"FencedStore.java, save {save}: {java[-1].edit_to_report:.3f} s, processor {java[-1].cpu:.2f} s  "
                  f"({java[-1].progress})", flush=True)
    summary("watch mode, a save of grants.sql at either of its koans", sql)
    summary("watch mode, a save of FencedStore.java with grants.sql still to write", java)
    print("load average after:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
