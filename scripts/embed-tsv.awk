# Shared by the scripts that embed a data file in the binary
# (embed-noise-floors.awk, embed-classic.awk; run as awk -f THAT -f this):
# every line of the file becomes a line of a C string literal, and fail()
# names the file and line a check refused.
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
