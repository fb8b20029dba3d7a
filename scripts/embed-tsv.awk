# Shared by the scripts that embed a data file in the binary
# (embed-noise-floors.awk, embed-classic.awk, embed-kpi.awk; run as
# awk -f THAT -f this):
# every line of the file becomes a line of a C string literal, and fail()
# names the file and line a check refused. The embedding script's BEGIN
# sets table, the data file's name without .tsv ("noise-floors"): the
# literal is then noise_floors_tsv[], its file data/noise-floors.tsv and its
# script scripts/embed-noise-floors.awk.
# A glob table (embed-noise-floors.awk, embed-kpi.awk) counts its rows in
# rows and keeps the last glob in last: its END calls glob_table_end(), which
# refuses a last row other than "*" (a name no row matches would lack what
# the table gives: its floor, its direction) and ends the literal.
BEGIN {
	FS = "\t"
	symbol = table
	gsub(/-/, "_", symbol)
	print "/* generated from data/" table ".tsv by scripts/embed-" table ".awk */"
	print "const char " symbol "_tsv[] ="
}
function glob_table_end(lacking) {
	if (failed)
		exit 1
	if (!rows || last != "*") {
		printf "%s: the last row is not '*': a metric no row matches would have no %s\n", FILENAME, lacking > "/dev/stderr"
		exit 1
	}
	print "\t;"
}
function fail(why) {
	printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
	failed = 1
	exit 1
}
{
	line = $0
	gsub(/\\/, "\\\\", line)
	gsub(/"/, "\\\"", line)
	gsub(/\t/, "\\t", line)
	printf "\t\"%s\\n\"\n", line
}
