# data/noise-floors.tsv -> a C source defining noise_floors_tsv[], the
# file's text; a row that is not GLOB<TAB>PCT%<TAB>HOW, or a last row that
# is not "*", fails the build here (the C parser checks the same at run
# time, and tests/unit/test_noise_floors.c parses the embedded file).
BEGIN {
	table = "noise-floors"
}
$0 != "" && $0 !~ /^#/ {
	if (NF != 3)
		fail("a row is GLOB<TAB>FLOOR%<TAB>how it was derived, not " NF " field(s)")
	if ($2 !~ /^[0-9]+(\.[0-9]+)?%$/ || $2 + 0 > 100)
		fail("the floor '" $2 "' is not a percentage of 0 to 100 (e.g. 2%)")
	if ($1 == "" || $3 == "")
		fail("an empty glob or derivation")
	last = $1
	rows++
}
END {
	glob_table_end("floor")
}
