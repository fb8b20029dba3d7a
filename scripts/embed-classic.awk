# data/classic.tsv -> a C source defining classic_tsv[], the file's text.
# A row that breaks the format data/classic.tsv's header describes fails the
# build here: the C parser (src/analyze/classic_table.c) checks the same at
# run time, and tests/unit/test_classic.c parses the embedded file.
BEGIN {
	table = "classic"
	unit["wall_s"] = "s"
	unit["mb_per_s"] = "MB/s"
	unit["mib_per_s"] = "MiB/s"
	unit["files_per_s"] = "files/s"
	rows = 0
}
function need(n) {
	if (NF != n)
		fail("a '" $1 "' row has " n " tab-separated fields, not " NF)
	for (k = 1; k <= n; k++)
		if ($k == "")
			fail("field " k " of a '" $1 "' row is empty")
}
$0 != "" && $0 !~ /^#/ {
	if ($1 == "experiment") {
		need(4)
		if ($2 in experiment)
			fail("experiment '" $2 "' is given twice")
		experiment[$2] = 1
	} else if ($1 == "targets") {
		need(3)
		if (!($2 in experiment))
			fail("the targets of '" $2 "' before its experiment row")
		if ($2 in targets)
			fail("the targets of '" $2 "' are given twice")
		if ($3 ~ /^,|,$|,,|[ \t]/)
			fail("targets '" $3 "' is not an --fs LIST")
		targets[$2] = 1
	} else if ($1 == "figure") {
		need(7)
		if (!($2 in experiment))
			fail("a figure of '" $2 "' before its experiment row")
		if (!($4 in unit))
			fail("metric '" $4 "' is not wall_s, mb_per_s, mib_per_s or files_per_s")
		if ($7 != unit[$4])
			fail("metric " $4 " is in " unit[$4] ", not '" $7 "'")
		if ($6 !~ /^(~?[0-9]+(\.[0-9]+)?|[0-9]+(\.[0-9]+)?-[0-9]+(\.[0-9]+)?)$/)
			fail("value '" $6 "' is not N, ~N or LO-HI")
		if ($3 ~ /\+/ && $4 != "wall_s")
			fail("phases are added (" $3 ") only for wall_s")
		figure[$2 SUBSEP $3 SUBSEP $4 SUBSEP $5] = 1
	} else if ($1 == "ratio") {
		need(7)
		if (!(($2 SUBSEP $3 SUBSEP $4 SUBSEP $5) in figure) ||
		    !(($2 SUBSEP $3 SUBSEP $4 SUBSEP $6) in figure))
			fail("a ratio of figures not given above it")
	} else {
		fail("a row is experiment, targets, figure or ratio, not '" $1 "'")
	}
	rows++
}
END {
	if (failed)
		exit 1
	for (e in experiment)
		if (!(e in targets))
			fail("experiment '" e "' has no targets row")
	if (!rows) {
		printf "%s: no rows\n", FILENAME > "/dev/stderr"
		exit 1
	}
	print "\t;"
}
