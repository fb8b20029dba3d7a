# data/kpi.tsv -> a C source defining kpi_tsv[], the file's text; a row that
# is not GLOB<TAB>higher|lower|none<TAB>yes|no<TAB>why, or a last row that
# is not "*", fails the build here (the C parser, src/compare/kpi.c, checks
# the same at run time, and tests/unit/test_kpi.c parses the embedded file).
BEGIN {
	table = "kpi"
}
$0 != "" && $0 !~ /^#/ {
	if (NF != 4)
		fail("a row is GLOB<TAB>DIRECTION<TAB>KPI<TAB>why, not " NF " field(s)")
	if ($2 !~ /^(higher|lower|none)$/)
		fail("the direction '" $2 "' is not higher, lower or none")
	if ($3 !~ /^(yes|no)$/)
		fail("KPI '" $3 "' is not yes or no")
	if ($1 == "" || $4 == "")
		fail("an empty glob or reason")
	last = $1
	rows++
}
END {
	glob_table_end("direction")
}
