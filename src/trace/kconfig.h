/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf resolves __kconfig externs (CONFIG_HZ) from /proc/config.gz or
 * /boot/config-$(uname -r), and refuses to load an object that uses one when
 * neither exists, weak extern or not. Domains pass this as the open
 * options' kconfig so they load anyway, with CONFIG_HZ 0 = unknown.
 */
#ifndef FSPROF_KCONFIG_H
#define FSPROF_KCONFIG_H

/* NULL when the kernel config is readable, else "CONFIG_HZ=0\n" */
const char *kconfig_fallback(void);

#endif
