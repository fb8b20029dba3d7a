#!/bin/sh
# A command that marks its own phases (tests/integration/trace_command.bats):
# create 200 files, an fsync loop, remove them. Around the fsync loop it
# reads the journal's own transaction count (/proc/fs/jbd2/<dev>-8/info)
# into $JBD2_OUT: "before after", read inside the phase's window.
set -eu
dev=$(basename "$(findmnt -n -o SOURCE --target "$FSPROF_DIR")")
info=$(ls -d /proc/fs/jbd2/"$dev"-*/info | head -1)
transactions() { sed -n 's/^\([0-9]*\) transactions.*/\1/p' "$info"; }

echo "begin create" >&"$FSPROF_PHASE_FD"
for i in $(seq 1 200); do echo data >"f$i"; done
echo end >&"$FSPROF_PHASE_FD"

echo "begin fsync" >&"$FSPROF_PHASE_FD"
before=$(transactions)
for i in $(seq 1 ${FSYNCS:-40}); do
	echo more >>f1
	sync f1 # coreutils: fsync(2) of the file
done
after=$(transactions)
echo end >&"$FSPROF_PHASE_FD"
echo "$before $after" >"$JBD2_OUT"

"$FSPROF" phase remove
rm -f f*
"$FSPROF" phase --end
