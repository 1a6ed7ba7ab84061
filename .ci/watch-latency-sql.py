#!/usr/bin/env python3
"""Edit-to-report latency of watch mode for a save of lesson 6's SQL, timed as .ci/watch-latency.py times a save
of FencedStore.java: from the save until the report's `Progress:` line, with the processor time of the watch JVM.

The learner it plays has done lessons 1 to 5 and apply_request.sql (copied in from solutions/) and is at koan
6.22: each save alternates grants.sql between its stub and the reference's, so every other run passes all 26
lesson 6 koans and the others stop at 6.22. Needs FENCING_PG_URL. Puts every file back at the end.
Usage: python3 .ci/watch-latency-sql.py [edits]
"""
import importlib.util, os, shutil, signal, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("watch_latency", os.path.join(here, "watch-latency.py"))
java_latency = importlib.util.module_from_spec(spec)
spec.loader.exec_module(java_latency)

STORE = "fencingkoans/store"
PG = "fencingkoans/pg"
LEARNER_DONE = [f"src/main/java/{STORE}/{name}" for name in os.listdir(f"solutions/src/main/java/{STORE}")] \
    + [f"src/main/resources/{PG}/apply_request.sql"]
GRANTS = f"exercises/src/main/resources/{PG}/grants.sql"


def main():
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    if not os.environ.get("FENCING_PG_URL"):
        raise SystemExit("set FENCING_PG_URL to a superuser's JDBC URL: lesson 6 must run, not be skipped")
    print("load average before:", open("/proc/loadavg").read().split()[:3], flush=True)
    kept = tempfile.mkdtemp(prefix="watch-latency-sql.")
    for path in LEARNER_DONE + [GRANTS.removeprefix("exercises/")]:
        os.makedirs(os.path.dirname(os.path.join(kept, path)), exist_ok=True)
        shutil.copy(os.path.join("exercises", path), os.path.join(kept, path))
    stub, reference = open(GRANTS).read(), open(f"solutions/src/main/resources/{PG}/grants.sql").read()
    latencies, processor, reports = [], [], []
    try:
        for path in LEARNER_DONE:
            shutil.copy(os.path.join("solutions", path), os.path.join("exercises", path))
        process = subprocess.Popen(["./mvnw", "-o", "-q", "test-compile", "exec:java", "-Pwatch"],
                                   stdout=subprocess.PIPE, text=True, start_new_session=True)
        found = java_latency.lines_of(process)
        java_latency.until_progress(found)
        for edit in range(1, edits + 1):
            time.sleep(1)
            cpu_before = java_latency.cpu_seconds(process.pid)
            with open(GRANTS, "w") as f:
                f.write(reference if edit % 2 else stub)
            saved = time.monotonic()
            shown, line = java_latency.until_progress(found)[-1]
            latencies.append(shown - saved)
            processor.append(java_latency.cpu_seconds(process.pid) - cpu_before)
            reports.append(line)
            print(f"sql edit {edit}: {shown - saved:.3f} s, processor {processor[-1]:.2f} s  ({line})", flush=True)
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
    finally:
        for path in LEARNER_DONE + [GRANTS.removeprefix("exercises/")]:
            shutil.copy(os.path.join(kept, path), os.path.join("exercises", path))
        shutil.rmtree(kept)
    for label, edits_of in (("all 26 pass", latencies[0::2]), ("stops at 6.22", latencies[1::2])):
        if edits_of:
            print(f"watch mode, lesson 6 SQL save, {label}: median {statistics.median(edits_of):.3f} s over "
                  f"{len(edits_of)} edits (min {min(edits_of):.3f}, max {max(edits_of):.3f})")
    print(f"watch mode, lesson 6 SQL save: median {statistics.median(latencies):.3f} s over {len(latencies)} edits; "
          f"processor time per edit: median {statistics.median(processor):.2f} s")
    print("load average after:", open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
