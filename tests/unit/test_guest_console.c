// SPDX-License-Identifier: GPL-2.0
/* What a failed guest's error quotes of its console (src/vm/guest_output.h) */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "vm/guest_output.h"

/*
 * A 6.12 guest's console ending in an oops, in the kernel's layout: the
 * title, CPU, hardware and RIP lines, the code and registers, the call
 * trace, the modules, then (oops=panic) the registers again and the panic.
 * The RIP, code and register lines are those of raid_dm_guest's guest that
 * oopsed under TCG in session 12, which a plain tail of 15 lines quoted,
 * and nothing of the oops's title or its call trace (not kept: made up
 * here in the kernel's form).
 */
static const char oops_console[] =
	"[    8.412000] fsprof-vm: init started uptime=8.41\n"
	"[   43.411822] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[   43.411900] CPU: 1 UID: 0 PID: 0 Comm: swapper/1 Not tainted 6.12.118+deb12-amd64 #1  Debian 6.12.118-1~deb12u1\n"
	"[   43.411950] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014\n"
	"[   43.412277] RIP: 0010:__schedule+0x339/0xbf0\n"
	"[   43.412354] Code: 82 48 89 45 b8 0f 85 42 07 00 00 41 83 7d 68 01 ba 01 00 00 00 75 0d 31 d2 41 80 bd d1 00 00 00 00 0f 95 c2 e9 70 03 00 00 0f <1f> 44 00 00\n"
	"[   43.412377] RSP: 0018:ffffc900000c3e68 EFLAGS: 00000096\n"
	"[   43.412413] RAX: ffff88803af21600 RBX: ffff88803af36040 RCX: ffff8880042f0000\n"
	"[   43.412425] RDX: 0000000000052e3b RSI: 0000000a1ab8e652 RDI: ffff88803af21640\n"
	"[   43.412437] RBP: ffffc900000c3ed0 R08: 0000000a1ab8e652 R09: 0000000000000001\n"
	"[   43.412449] R10: 0000000000000001 R11: 0000000000000000 R12: ffff8880042d8000\n"
	"[   43.412461] R13: ffff8880042f0000 R14: 00000000ffffffff R15: 0000000000000000\n"
	"[   43.412480] FS:  0000000000000000(0000) GS:ffff88803af00000(0000) knlGS:0000000000000000\n"
	"[   43.412498] CS:  0010 DS: 0000 ES: 0000 CR0: 0000000080050033\n"
	"[   43.412510] CR2: 0000000000000000 CR3: 0000000004a2e000 CR4: 0000000000750ef0\n"
	"[   43.412520] Call Trace:\n"
	"[   43.412530]  <TASK>\n"
	"[   43.412540]  ? die+0x36/0x90\n"
	"[   43.412550]  ? do_trap+0xda/0x100\n"
	"[   43.412560]  ? __schedule+0x339/0xbf0\n"
	"[   43.412570]  ? do_error_trap+0x6a/0x90\n"
	"[   43.412580]  ? exc_invalid_op+0x50/0x70\n"
	"[   43.412590]  ? asm_exc_invalid_op+0x1a/0x20\n"
	"[   43.412600]  schedule_idle+0x22/0x40\n"
	"[   43.412610]  do_idle+0x17e/0x210\n"
	"[   43.412620]  cpu_startup_entry+0x29/0x30\n"
	"[   43.412630]  start_secondary+0x11d/0x140\n"
	"[   43.412640]  common_startup_64+0x13e/0x141\n"
	"[   43.412650]  </TASK>\n"
	"[   43.412660] Modules linked in: raid1 md_mod loop xfs ext4 crc16 mbcache jbd2 virtio_blk virtio_pci\n"
	"[   43.412670] ---[ end trace 0000000000000000 ]---\n"
	"[   43.412680] RIP: 0010:__schedule+0x339/0xbf0\n"
	"[   43.412690] RSP: 0018:ffffc900000c3e68 EFLAGS: 00000096\n"
	"[   43.412700] RAX: ffff88803af21600 RBX: ffff88803af36040 RCX: ffff8880042f0000\n"
	"[   43.412710] Kernel panic - not syncing: Fatal exception in interrupt\n"
	"[   43.412720] Kernel Offset: disabled\n";

static char dir[] = "/tmp/test_guest_console.XXXXXX";

static int make_dir(void **state)
{
	(void)state;
	strcpy(dir + sizeof(dir) - 7, "XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/console.log", dir);
	unlink(path);
	return rmdir(dir);
}

static void console_write(const char *text)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void assert_quoted(const char *excerpt, const char *line, bool want)
{
	if (!!strstr(excerpt, line) != want)
		fail_msg("the excerpt %s \"%s\":%s", want ? "lacks" : "has",
			 line, excerpt);
}

static void an_oops_is_quoted_by_its_title_rip_and_call_trace(void **state)
{
	char buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	console_write(oops_console);
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "\n    [   43.411822] Oops: invalid opcode", true);
	assert_quoted(buf, "Comm: swapper/1", true);
	assert_quoted(buf, "] RIP: 0010:__schedule+0x339/0xbf0", true);
	assert_quoted(buf, "] Call Trace:", true);
	assert_quoted(buf, "schedule_idle+0x22/0x40", true);
	assert_quoted(buf, "do_idle+0x17e/0x210", true);
	assert_quoted(buf, "Kernel panic - not syncing: Fatal exception", true);
	assert_quoted(buf, "Kernel Offset: disabled", true);
	/* the registers and the code bytes are left out, "..." said */
	assert_quoted(buf, "RAX:", false);
	assert_quoted(buf, "Code:", false);
	assert_quoted(buf, "\n    ...\n    [   43.412520] Call Trace:", true);
	assert_quoted(buf, "init started", false);
}

static void without_an_oops_the_last_15_lines_are_quoted(void **state)
{
	char text[2048], buf[GUEST_CONSOLE_EXCERPT_BYTES], line[32];
	size_t used = 0;
	int i;

	(void)state;
	for (i = 1; i <= 40; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "[    %d.000000] line %d\n\n", i, i);
	console_write(text);
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "] line 25\n", false);
	for (i = 26; i <= 40; i++) {
		snprintf(line, sizeof(line), "\n    [    %d.000000] line %d", i,
			 i);
		assert_quoted(buf, line, true);
	}
	assert_quoted(buf, "...", false);
}

static void an_oops_near_the_end_is_in_the_plain_tail(void **state)
{
	const char *tail = strstr(oops_console, "[   43.412600]");
	char text[2048], buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	/* the title among the last 15 lines: the tail has all of it */
	snprintf(text, sizeof(text),
		 "[   43.411822] BUG: kernel NULL pointer dereference\n%s",
		 tail);
	console_write(text);
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "\n    [   43.411822] BUG: kernel NULL pointer",
		      true);
	assert_quoted(buf, "\n    [   43.412720] Kernel Offset: disabled",
		      true);
	assert_quoted(buf, "...", false);
}

static void a_guest_without_a_console_quotes_nothing(void **state)
{
	char buf[64] = "x";

	(void)state;
	console_excerpt(dir, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static void a_small_buffer_is_filled_and_ended(void **state)
{
	char buf[100];

	(void)state;
	console_write(oops_console);
	console_excerpt(dir, buf, sizeof(buf));
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			an_oops_is_quoted_by_its_title_rip_and_call_trace,
			make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(
			without_an_oops_the_last_15_lines_are_quoted, make_dir,
			remove_dir),
		cmocka_unit_test_setup_teardown(
			an_oops_near_the_end_is_in_the_plain_tail, make_dir,
			remove_dir),
		cmocka_unit_test_setup_teardown(
			a_guest_without_a_console_quotes_nothing, make_dir,
			remove_dir),
		cmocka_unit_test_setup_teardown(
			a_small_buffer_is_filled_and_ended, make_dir,
			remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
