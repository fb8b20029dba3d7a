// SPDX-License-Identifier: GPL-2.0
/* fsprof: why is this filesystem slow on this workload? */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
