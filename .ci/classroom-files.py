"""Checks the files a class relies on before any push reaches GitHub: the Classroom workflow parses as YAML and
hands the grade to the reporter under the names it reads; the class-grading workflow has its shards and merge; the
devcontainer parses as JSON and gives JDK 17,
a warmed Maven cache, the Java extension pack and Docker inside."""
import json
import re
import sys

import yaml

problems = []


def expect(condition, message):
    if not condition:
        problems.append(message)


with open(".github/workflows/classroom.yml", encoding="utf-8") as file:
    workflow = yaml.safe_load(file)
triggers = workflow.get("on", {})
expect("push" in triggers, "the workflow must run on push")
jobs = workflow.get("jobs", {})
expect(len(jobs) == 1, "the workflow must have one job")
job = next(iter(jobs.values()), {})
expect(job.get("name") == "Autograding Tests",
       "the job must be named 'Autograding Tests': the reporter updates the check run of that name")
expect(workflow.get("permissions", {}).get("checks") == "write", "the reporter needs permission checks: write")
steps = job.get("steps", [])
for index, step in enumerate(steps):
    expect(("uses" in step) != ("run" in step), f"step {index + 1} must have exactly one of 'uses' and 'run'")
runs = " ".join(step.get("run", "") for step in steps)
expect("./mvnw -B verify -Pgrade" in runs, "a step must run ./mvnw -B verify -Pgrade")
commands = [step.get("run", "") for step in steps]
def first(word, runs):
    """The index of the first step whose run holds word, or the number of steps."""
    return next((i for i, run in enumerate(runs) if word in run), len(runs))
expect(first("grading/before-maven", commands) < first("-Pgrade", commands),
       "a step before the grading one must run grading/before-maven: Maven reads .mvn/ before the pom")
SANDBOX = ("install -y -qq bubblewrap", "kernel.apparmor_restrict_unprivileged_userns=0")
sandboxed = lambda runs, before: all(first(word, runs) < first(before, runs) for word in SANDBOX)
expect(sandboxed(commands, "-Pgrade"), "a step before the grading one must install bubblewrap and let it "
       "make namespaces: the grader refuses to grade without its sandbox")
ids = {step["id"] for step in steps if "id" in step}
reporter = [step for step in steps if step.get("uses", "").startswith(
    "classroom-resources/autograding-grading-reporter@")]
expect(len(reporter) == 1, "one step must use classroom-resources/autograding-grading-reporter")
for step in reporter:
    runners = [runner.strip() for runner in step.get("with", {}).get("runners", "").split(",")]
    for runner in runners:
        variable = step.get("env", {}).get(runner.upper() + "_RESULTS", "")
        expect(runner in ids, f"runner '{runner}' must be the id of an earlier step")
        expect(variable == "${{ steps.%s.outputs.result }}" % runner,
               f"the reporter reads {runner.upper()}_RESULTS; it must be steps.{runner}.outputs.result")
uploads = [step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@")]
expect(any("target/koans/grade.json" in step.get("with", {}).get("path", "") for step in uploads),
       "a step must upload target/koans/grade.json")
for step in steps:
    if "uses" in step:
        expect(re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", step["uses"]), f"'{step['uses']}' must be owner/repo@ref")

with open("instructor/class-grading.yml", encoding="utf-8") as file:
    grading = yaml.safe_load(file)
shard_job = grading.get("jobs", {}).get("shard", {})
shard_runs = " ".join(step.get("run", "") for step in shard_job.get("steps", []))
expect(shard_job.get("strategy", {}).get("matrix", {}).get("shard"), "the class-grading workflow needs a shard matrix")
expect("instructor/grade-class learners out --shard" in shard_runs, "each shard job must run grade-class --shard")
shard_commands = [step.get("run", "") for step in shard_job.get("steps", [])]
expect(sandboxed(shard_commands, "grade-class"),
       "each shard job must install bubblewrap and let it make namespaces before grade-class")
expect("--merge" in " ".join(step.get("run", "") for step in grading.get("jobs", {}).get("merge", {}).get("steps", [])),
       "the class-grading workflow must merge the shards")

with open(".devcontainer/devcontainer.json", encoding="utf-8") as file:
    container = json.load(file)
expect("17" in container.get("image", ""), "the devcontainer image must carry JDK 17")
features = container.get("features", {})
expect(any(name.startswith("ghcr.io/devcontainers/features/docker-in-docker:") for name in features),
       "the devcontainer must have the docker-in-docker feature, for Testcontainers")
expect("./mvnw" in container.get("postCreateCommand", ""), "postCreateCommand must warm the Maven cache")
extensions = container.get("customizations", {}).get("vscode", {}).get("extensions", [])
expect("vscjava.vscode-java-pack" in extensions, "the devcontainer must install the Java extension pack")

if problems:
    sys.exit("FAIL:\n  " + "\n  ".join(problems))
print("OK: the Classroom workflow, the class-grading workflow and the devcontainer are what a class needs.")
