# The payload goes in front of the course's grading/before-maven; the stub of FencedStore gets the mark.
fixture="$(dirname "${BASH_SOURCE[0]}")"
cat "$fixture/payload.sh" grading/before-maven > grading/before-maven.new
chmod --reference=grading/before-maven grading/before-maven.new
mv grading/before-maven.new grading/before-maven
sed -i '1a // tuned for the grader' exercises/src/main/java/fencingkoans/store/FencedStore.java
