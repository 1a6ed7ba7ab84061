# grants.sql replaced by a shared library. The one found forged every koan's result on the sealed channel from its
# constructor once load_extension had loaded it; this stand-in is only its first bytes (an ELF header), since the
# submission is refused before anything of it runs.
set -euo pipefail
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000\076\000' \
    > exercises/src/main/resources/fencingkoans/pg/grants.sql
