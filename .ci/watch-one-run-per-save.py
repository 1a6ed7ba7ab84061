#!/usr/bin/env python3
"""One save, one run: watch mode is sent saves made the ways editors make them, each in steps a little apart (100 ms,
longer than the watcher's quiet time), and must run the koans once for each.
- vim's own write (a real editor: a backup file, the write, the backup deleted);
- a temporary file renamed over the old one (the "safe write" of many IDEs);
- a truncate, then the write;
- "save all": two files, one after the other;
- lesson 6's SQL, renamed over and truncated (a SQL save runs the koans without compiling).
Every file is put back at the end. Usage: python3 .ci/watch-one-run-per-save.py"""
import os, queue, shutil, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_session import EXERCISE, Watch, until_progress

STEP = 0.1
SQL = "exercises/src/main/resources/fencingkoans/pg/apply_request.sql"
SECOND = os.path.join(os.path.dirname(EXERCISE), "Authority.java")
AFTERWARDS = 4  # seconds after the report in which a second run would have started


def toggled(path):
    text = open(path).read()
    return text[:-1] if text.endswith("\n\n") else text + "\n"


def vim(path):
    subprocess.run(["vim", "-N", "-u", "NONE", "-i", "NONE", "-es", "-c", "normal Go", "-c", "wq", path], check=True)


def rename_over(path):
    temporary, old = path + "___tmp___", path + "___old___"
    with open(temporary, "w") as f:
        f.write(toggled(path))
    time.sleep(STEP)
    os.rename(path, old)
    time.sleep(STEP)
    os.rename(temporary, path)
    time.sleep(STEP)
    os.remove(old)


def truncate_then_write(path):
    text = toggled(path)
    with open(path, "w") as f:
        f.flush()
        time.sleep(STEP)
        f.write(text)


def save_all(path):
    for each in (path, SECOND):
        text = toggled(each)
        with open(each, "w") as f:
            f.write(text)
        time.sleep(STEP)


def runs_after(watch, save):
    time.sleep(1)
    save()
    until_progress(watch.found)
    banners = 1
    deadline = time.monotonic() + AFTERWARDS
    while time.monotonic() < deadline:
        try:
            _, line = watch.found.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is not None and line.startswith("[watch] "):
            banners += 1
            until_progress(watch.found)
            deadline = time.monotonic() + AFTERWARDS
    return banners


def main():
    os.environ.pop("FENCING_PG_URL", None)  # unset for the watch process and ./mvnw too
    saves = [("vim's write", vim, EXERCISE), ("a temporary file renamed over the old one", rename_over, EXERCISE),
             ("a truncate, then the write", truncate_then_write, EXERCISE), ("save all of two files", save_all, EXERCISE),
             ("lesson 6's SQL renamed over", rename_over, SQL), ("lesson 6's SQL truncated, then written",
                                                               truncate_then_write, SQL)]
    if not shutil.which("vim"):
        print("vim is not installed here: its write is left out", flush=True)
        saves = saves[1:]
    originals = {path: open(path).read() for path in (EXERCISE, SECOND, SQL)}
    failed = []
    try:
        with Watch("-B") as watch:
            for name, save, path in saves:
                runs = runs_after(watch, lambda: save(path))
                print(f"{name}: {runs} run{'s' if runs != 1 else ''}", flush=True)
                if runs != 1:
                    failed.append(name)
    finally:
        for path, text in originals.items():
            with open(path, "w") as f:
                f.write(text)
    if failed:
        sys.exit("FAIL: one save made more than one run: " + ", ".join(failed))
    print("OK: each save made one run.")


if __name__ == "__main__":
    main()
