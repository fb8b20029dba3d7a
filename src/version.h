/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSPROF_VERSION_H
#define FSPROF_VERSION_H

#define FSPROF_VERSION "0.1.0"

#endif
