# The learner deletes a shipped file instead of writing it.
git rm -q exercises/src/main/java/fencingkoans/store/Counterexamples.java
