/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming kernel code addresses (a tracepoint's caller_ip) from the kernel's
 * symbol table, /proc/kallsyms. Without kprobes this is the only way to
 * learn which function a recorded return address lies in. The file's text
 * symbols are read once into a table the process keeps, and read again
 * only when the file may have changed (for /proc/kallsyms: a module loaded
 * or unloaded); every function here answers from that table.
 */
#ifndef FSPROF_KALLSYMS_H
#define FSPROF_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#define KSYM_NAME_LEN 64

struct ksym_lookup {
	uint64_t addr; /* in: a code address */
	bool found; /* out: a text symbol at or below addr was found */
	uint64_t sym_addr; /* out: where that symbol starts */
	char name[KSYM_NAME_LEN]; /* out: its name: the function */
};

/*
 * Name the function holding each address: the text symbol (type t/T/w/W)
 * with the highest address not above it, read from path (normally
 * "/proc/kallsyms"); of several symbols at one address, the first in the
 * file. Returns the number of addresses named (0 when the file shows every
 * address as 0, as it does under kptr_restrict without CAP_SYSLOG), or
 * -errno when path cannot be read.
 */
int kallsyms_resolve(const char *path, struct ksym_lookup *v, unsigned int n);


/*
 * The span of every text symbol, the kernel's and its modules': the lowest
 * and the highest address named (*lo <= *hi). A word on a kernel stack
 * inside it is a code address, or a static one, never a heap or stack
 * pointer. Returns 0, -ENOENT when the file names no address (all 0 under
 * kptr_restrict), or -errno when it cannot be read.
 */
int kallsyms_text_span(const char *path, uint64_t *lo, uint64_t *hi);

/*
 * Where the text function name lies: [*start, *end), end being the next
 * text symbol's address. Returns 0, -ENOENT when it is not there (or every
 * address is hidden), or -errno when the file cannot be read.
 */
int kallsyms_function(const char *path, const char *name, uint64_t *start,
		      uint64_t *end);

/*
 * The text span in at most this many ranges: the kernel's text (up to
 * _etext), its init text (_sinittext to _einittext) and all text above
 * (modules, BPF programs, ftrace trampolines); the kernel's read-only
 * data, data and bss lie between them.
 */
#define KSYM_TEXT_RANGES 3

/* what one pass over the text symbols found (kallsyms_scan_text) */
struct ksym_text_scan {
	uint64_t lo, hi; /* the span, as kallsyms_text_span() */
	/*
	 * the span without the kernel's data, by address: [range_lo[i],
	 * range_hi[i]], n_ranges of them (1, the span, without the markers)
	 */
	uint64_t range_lo[KSYM_TEXT_RANGES], range_hi[KSYM_TEXT_RANGES];
	unsigned int n_ranges;
	int which; /* the first of the names asked for that is there, or -1 */
	uint64_t start,
		end; /* where names[which] lies, as kallsyms_function() */
};

/*
 * Both at once: the text span, and where the first of names[0..n) that the
 * file has lies (of several symbols of that name, the first in the file).
 * Returns 0, -ENOENT when the file names no address, or -errno.
 */
int kallsyms_scan_text(const char *path, const char *const *names,
		       unsigned int n, struct ksym_text_scan *out);

#endif
