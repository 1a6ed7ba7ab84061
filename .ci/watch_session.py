"""Drives watch mode (`./mvnw -q test-compile exec:java@watch`) from a script: saves a file, waits for the report.

Shared by .ci/watch-latency.py (how fast), .ci/watch-check (what it prints, one run per save) and .ci/learner-setups (offline)."""
import os, queue, re, signal, subprocess, threading, time

EXERCISE = "exercises/src/main/java/fencingkoans/store/FencedStore.java"
# The shipped stub's body of FencedStore.apply (the course's first koan), read from the file, whatever it passes on.
_shipped = re.search(r"public ApplyResult apply\(ApplyRequest request\) \{\n(.*?\n)    \}\n",
                     open(os.path.join(os.path.dirname(__file__), "..", EXERCISE)).read(), re.S)
STUB = _shipped.group(1) if _shipped and "NotWrittenYet" in _shipped.group(1) else "(no stub in " + EXERCISE + ")"
ANSWER = """        long installed = ledger.installedGeneration(request.resource()).orElseThrow();
        if (request.generation() != installed) {
            return ApplyResult.Rejected.stale(request.generation(), installed);
        }
        return new ApplyResult.Applied(ledger.addToValue(request.resource(), request.delta()));
"""
COMPILED = "[watch] compiled in "


def lines_of(process):
    found = queue.Queue()
    def read():
        for line in process.stdout:
            found.put((time.monotonic(), line.rstrip("\n")))
        found.put((time.monotonic(), None))
    threading.Thread(target=read, daemon=True).start()
    return found


def until_progress(found, timeout=300):
    """Every line up to the report's last one: [(when, line)], the Progress line last."""
    seen = []
    while True:
        when, line = found.get(timeout=timeout)
        if line is None:
            raise SystemExit("the run ended without a Progress line:\n" + "\n".join(text for _, text in seen))
        seen.append((when, line))
        if line.startswith("Progress:"):
            return seen


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watch:
    """One watch-mode process for the life of a `with` block; every file it saved is put back at the end."""

    def __init__(self, *maven_flags):
        self.command = ["./mvnw", *maven_flags, "-q", "test-compile", "exec:java@watch"]
        self.originals = {}

    def __enter__(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, text=True, start_new_session=True)
        self.found = lines_of(self.process)
        self.first = [line for _, line in until_progress(self.found)]
        return self

    def save(self, path, text):
        """Writes the file and returns the report it caused, with the save's time and the processor time spent."""
        self.originals.setdefault(path, open(path).read())
        time.sleep(1)  # so that the watcher has settled after the previous run
        cpu_before = cpu_seconds(self.process.pid)
        saved = time.monotonic()
        with open(path, "w") as f:
            f.write(text)
        lines = until_progress(self.found)
        return Run(saved, lines, cpu_seconds(self.process.pid) - cpu_before)

    def __exit__(self, *exception):
        for path, text in self.originals.items():
            with open(path, "w") as f:
                f.write(text)
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait()


class Run:
    def __init__(self, saved, lines, cpu):
        self.lines = [line for _, line in lines]
        self.progress = self.lines[-1]
        self.edit_to_report = lines[-1][0] - saved
        self.cpu = cpu
        compiled = [when for when, line in lines if line.startswith(COMPILED)]
        self.test_time = lines[-1][0] - compiled[-1] if compiled else None
