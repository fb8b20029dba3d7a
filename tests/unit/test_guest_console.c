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
 * The end of a 6.12 guest's console under TCG with two vCPUs (thread=multi)
 * while a static key flipped (the reproducer of session 13: a tracepoint
 * enabled and disabled under load): the oops, its registers and call trace,
 * a second CPU's oops, and the panic that oops=panic makes of them. A plain
 * tail of 15 lines quoted only registers and the panic.
 */
static const char oops_console[] =
	"oops: toggling start uptime=20.35\n"
	"[   22.817146] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n"
	"[   22.818043] CPU: 0 UID: 0 PID: 171 Comm: dd Not tainted 6.12.118+deb12-amd64 #1  Debian 6.12.118-1~deb12u1\n"
	"[   22.818348] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014\n"
	"[   22.818585] RIP: 0010:try_to_wake_up+0x5b4/0x680\n"
	"[   22.819264] Code: e9 00 fc ff ff e8 ec 92 ff ff 80 bb d1 00 00 00 00 0f 85 c5 00 00 00 8b 53 34 85 d2 0f 84 a7 00 00 00 c7 43 18 00 00 00 00 eb <05> e9 a9 fc ff ff 65 8b 05 eb 8e f1 7e 48 0f a3 05 57 a9 d4 01 0f\n"
	"[   22.819415] RSP: 0018:ffffc90000443960 EFLAGS: 00000006\n"
	"[   22.819500] RAX: 0000000000000008 RBX: ffff888004dfa100 RCX: 0000000000000800\n"
	"[   22.819531] RDX: ffff888004df8000 RSI: 0000000003ba3800 RDI: ffff88803e636040\n"
	"[   22.819561] RBP: ffff88803e636040 R08: 0000000000000400 R09: 0000000000000002\n"
	"[   22.819585] R10: 0000000000000001 R11: 0000000000000000 R12: 0000000000000010\n"
	"[   22.819611] R13: 0000000000000006 R14: ffff888004dfadb4 R15: 0000000000000018\n"
	"[   22.819729] FS:  0000000005a3c3c0(0000) GS:ffff88803e600000(0000) knlGS:0000000000000000\n"
	"[   22.819761] CS:  0010 DS: 0000 ES: 0000 CR0: 0000000080050033\n"
	"[   22.819787] CR2: 00000000005e4720 CR3: 0000000004b02000 CR4: 0000000000750ef0\n"
	"[   22.820086] PKRU: 55555554\n"
	"[   22.820213] Call Trace:\n"
	"[   22.821604]  <TASK>\n"
	"[   22.821854]  ? update_curr+0x172/0x1e0\n"
	"[   22.822080]  autoremove_wake_function+0x15/0x60\n"
	"[   22.822176]  __wake_up_common+0x78/0xa0\n"
	"[   22.822211]  __wake_up_sync_key+0x3b/0x60\n"
	"[   22.822239]  pipe_write+0x320/0x650\n"
	"[   22.822284]  vfs_write+0x3ae/0x450\n"
	"[   22.822326]  ksys_write+0xbb/0xf0\n"
	"[   22.822353]  do_syscall_64+0x87/0x1b0\n"
	"[   22.822421]  ? arch_exit_to_user_mode_prepare.constprop.0+0x16/0xa0\n"
	"[   22.822450]  ? syscall_exit_to_user_mode+0x37/0x1b0\n"
	"[   22.822478]  ? do_syscall_64+0x93/0x1b0\n"
	"[   22.822509]  ? check_preempt_wakeup_fair+0x178/0x230\n"
	"[   22.822534]  ? wakeup_preempt+0x61/0x70\n"
	"[   22.822559]  ? ttwu_do_activate+0x118/0x220\n"
	"[   22.822580]  ? sched_clock+0x10/0x30\n"
	"[   22.822604]  ? trace_clock_local+0x10/0x30\n"
	"[   22.822630]  ? __rb_reserve_next.constprop.0+0x57/0x450\n"
	"[   22.822660]  ? ring_buffer_lock_reserve+0x12c/0x3c0\n"
	"[   22.822689]  ? ring_buffer_unlock_commit+0x3c/0x170\n"
	"[   22.822718]  ? trace_buffer_unlock_commit_regs+0x37/0x1d0\n"
	"[   22.822747]  ? trace_event_buffer_commit+0x5d/0x250\n"
	"[   22.822777]  ? trace_event_raw_event_sched_switch+0x11e/0x170\n"
	"[   22.822808]  ? save_fpregs_to_fpstate+0x3d/0x90\n"
	"[   22.822846]  ? finish_task_switch.isra.0+0x97/0x2f0\n"
	"[   22.822877]  ? __rseq_handle_notify_resume+0xa4/0x4e0\n"
	"[   22.822906]  ? __schedule+0x4e8/0xbf0\n"
	"[   22.822936]  ? restore_fpregs_from_fpstate+0x3c/0xa0\n"
	"[   22.822963]  ? switch_fpu_return+0x4f/0xd0\n"
	"[   22.822989]  ? arch_exit_to_user_mode_prepare.constprop.0+0x75/0xa0\n"
	"[   22.823014]  ? syscall_exit_to_user_mode+0x37/0x1b0\n"
	"[   22.823040]  ? do_syscall_64+0x93/0x1b0\n"
	"[   22.823066]  ? do_syscall_64+0x93/0x1b0\n"
	"[   22.823088]  ? arch_exit_to_user_mode_prepare.constprop.0+0x75/0xa0\n"
	"[   22.823116]  entry_SYSCALL_64_after_hwframe+0x76/0x7e\n"
	"[   22.824124] RIP: 0033:0x47b7a0\n"
	"[   22.824611] Code: 40 00 48 c7 c2 e0 ff ff ff f7 d8 64 89 02 48 c7 c0 ff ff ff ff eb b7 0f 1f 00 80 3d e8 85 16 00 00 74 17 b8 01 00 00 00 0f 05 <48> 3d 00 f0 ff ff 77 58 c3 0f 1f 80 00 00 00 00 48 83 ec 28 48 89\n"
	"[   22.824632] RSP: 002b:00007ffff4404ad8 EFLAGS: 00000202 ORIG_RAX: 0000000000000001\n"
	"[   22.824675] RAX: ffffffffffffffda RBX: 0000000000000001 RCX: 000000000047b7a0\n"
	"[   22.824688] RDX: 0000000000000001 RSI: 0000000005a3f2f0 RDI: 0000000000000001\n"
	"[   22.824703] RBP: 0000000005a3f2f0 R08: 0000000000000000 R09: 0000000000558b93\n"
	"[   22.824736] R10: 0000000000000000 R11: 0000000000000202 R12: 0000000000000001\n"
	"[   22.824748] R13: 0000000005a3c3a0 R14: 0000000005a3f2f0 R15: 0000000000000000\n"
	"[   22.824903]  </TASK>\n"
	"[   22.824995] Modules linked in: ext4 mbcache crc16 jbd2 virtio_blk crc32c_generic\n"
	"[   22.825945] ---[ end trace 0000000000000000 ]---\n"
	"[   22.825941] Oops: int3: 0000 [#2] PREEMPT SMP NOPTI\n"
	"[   22.826104] RIP: 0010:try_to_wake_up+0x5b4/0x680\n"
	"[   22.826145] Code: e9 00 fc ff ff e8 ec 92 ff ff 80 bb d1 00 00 00 00 0f 85 c5 00 00 00 8b 53 34 85 d2 0f 84 a7 00 00 00 c7 43 18 00 00 00 00 eb <05> e9 a9 fc ff ff 65 8b 05 eb 8e f1 7e 48 0f a3 05 57 a9 d4 01 0f\n"
	"[   22.826167] RSP: 0018:ffffc90000443960 EFLAGS: 00000006\n"
	"[   22.826186] RAX: 0000000000000008 RBX: ffff888004dfa100 RCX: 0000000000000800\n"
	"[   22.826199] RDX: ffff888004df8000 RSI: 0000000003ba3800 RDI: ffff88803e636040\n"
	"[   22.826212] RBP: ffff88803e636040 R08: 0000000000000400 R09: 0000000000000002\n"
	"[   22.826225] R10: 0000000000000001 R11: 0000000000000000 R12: 0000000000000010\n"
	"[   22.826237] R13: 0000000000000006 R14: ffff888004dfadb4 R15: 0000000000000018\n"
	"[   22.826253] FS:  0000000005a3c3c0(0000) GS:ffff88803e600000(0000) knlGS:0000000000000000\n"
	"[   22.826271] CS:  0010 DS: 0000 ES: 0000 CR0: 0000000080050033\n"
	"[   22.826264] CPU: 1 UID: 0 PID: 173 Comm: dd Tainted: G      D            6.12.118+deb12-amd64 #1  Debian 6.12.118-1~deb12u1\n"
	"[   22.826287] CR2: 00000000005e4720 CR3: 0000000004b02000 CR4: 0000000000750ef0\n"
	"[   22.826307] PKRU: 55555554\n"
	"[   22.826406] Tainted: [D]=DIE\n"
	"[   22.826423] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014\n"
	"[   22.826434] RIP: 0010:try_to_wake_up+0x5b4/0x680\n"
	"[   22.826583] Kernel panic - not syncing: Fatal exception in interrupt\n"
	"[   25.199015] Shutting down cpus with NMI\n"
	"[   25.201774] Kernel Offset: disabled\n";

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
	assert_quoted(buf, "\n    [   22.817146] Oops: int3: 0000 [#1]", true);
	assert_quoted(buf, "PID: 171 Comm: dd", true);
	assert_quoted(buf, "] RIP: 0010:try_to_wake_up+0x5b4/0x680", true);
	assert_quoted(buf, "\n    ...\n    [   22.820213] Call Trace:", true);
	assert_quoted(buf, "autoremove_wake_function+0x15/0x60", true);
	assert_quoted(buf, "pipe_write+0x320/0x650", true);
	assert_quoted(buf, "Kernel panic - not syncing: Fatal exception", true);
	assert_quoted(buf, "Kernel Offset: disabled", true);
	/* the registers and the code bytes are left out, "..." said */
	assert_quoted(buf, "RAX:", false);
	assert_quoted(buf, "Code:", false);
	assert_quoted(buf, "toggling start", false);
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
	const char *tail = strstr(oops_console, "[   22.826237]");
	char text[2048], buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	/* the title among the last 15 lines: the tail has all of it */
	snprintf(text, sizeof(text),
		 "[   22.826230] BUG: kernel NULL pointer dereference\n%s",
		 tail);
	console_write(text);
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "\n    [   22.826230] BUG: kernel NULL pointer",
		      true);
	assert_quoted(buf, "\n    [   25.201774] Kernel Offset: disabled",
		      true);
	assert_quoted(buf, "...", false);
}

/* the oops console with its title line replaced by the given lines */
static void console_write_retitled(const char *title)
{
	const char *old =
		"[   22.817146] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n";
	const char *at = strstr(oops_console, old);
	char text[sizeof(oops_console) + 1024];

	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - oops_console),
		 oops_console, title, at + strlen(old));
	console_write(text);
}

/* before 6.9 the die header had no "Oops: " in front */
static void a_6_1_die_header_is_an_oops(void **state)
{
	char buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	console_write_retitled(
		"[   22.817146] int3: 0000 [#1] PREEMPT SMP NOPTI\n");
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "\n    [   22.817146] int3: 0000 [#1]", true);
	assert_quoted(buf, "] Call Trace:", true);
	assert_quoted(buf, "RAX:", false);
}

/* a page fault's oops: what it was comes above the die header */
static void a_null_dereference_is_quoted_from_its_bug_line(void **state)
{
	char buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	console_write_retitled(
		"[   22.817100] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[   22.817110] #PF: supervisor read access in kernel mode\n"
		"[   22.817120] #PF: error_code(0x0000) - not-present page\n"
		"[   22.817130] PGD 0 P4D 0 \n"
		"[   22.817146] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI\n");
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "\n    [   22.817100] BUG: kernel NULL pointer",
		      true);
	assert_quoted(buf, "] Oops: Oops: 0000 [#1]", true);
	assert_quoted(buf, "PID: 171 Comm: dd", true);
	assert_quoted(buf, "] RIP: 0010:try_to_wake_up+0x5b4/0x680", true);
	assert_quoted(buf, "] Call Trace:", true);
}

/* a BUG that did not kill the kernel is not where the excerpt starts */
static void an_earlier_bug_without_a_die_header_is_passed_over(void **state)
{
	char buf[GUEST_CONSOLE_EXCERPT_BYTES];

	(void)state;
	console_write_retitled(
		"[   12.000000] BUG: sleeping function called from invalid context at mm/slab.h:1\n"
		"[   12.000001] in_atomic(): 1, irqs_disabled(): 0, pid: 80, name: sh\n"
		"[   12.000002] Call Trace:\n"
		"[   12.000003]  dump_stack_lvl+0x47/0x60\n"
		"[   12.000004]  __might_resched+0x10a/0x120\n"
		"[   22.817146] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n");
	console_excerpt(dir, buf, sizeof(buf));
	assert_quoted(buf, "sleeping function", false);
	assert_quoted(buf, "\n    [   22.817146] Oops: int3: 0000 [#1]", true);
	assert_quoted(buf, "autoremove_wake_function+0x15/0x60", true);
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
		cmocka_unit_test_setup_teardown(a_6_1_die_header_is_an_oops,
						make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(
			a_null_dereference_is_quoted_from_its_bug_line,
			make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(
			an_earlier_bug_without_a_die_header_is_passed_over,
			make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(
			a_guest_without_a_console_quotes_nothing, make_dir,
			remove_dir),
		cmocka_unit_test_setup_teardown(
			a_small_buffer_is_filled_and_ended, make_dir,
			remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
