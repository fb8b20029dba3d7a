/* SPDX-License-Identifier: GPL-2.0 */
/* The checks the rule table (rules.c) points to, one per rule. */
#ifndef FSPROF_ANALYZE_RULES_H
#define FSPROF_ANALYZE_RULES_H

#include "analyze/analyze_int.h"

/* rules_log.c: the XFS log and the jbd2 journal */
bool rule_xfs_log_io_bound(const struct phase_facts *x, struct finding *f);
bool rule_xfs_log_force_bound(const struct phase_facts *x, struct finding *f);
bool rule_btrfs_log_sync_bound(const struct phase_facts *x, struct finding *f);
bool rule_xfs_log_space(const struct phase_facts *x, struct finding *f);
bool rule_jbd2_commit_bound(const struct phase_facts *x, struct finding *f);
bool rule_jbd2_journal_full(const struct phase_facts *x, struct finding *f);

/* rules_alloc.c: ext4 delayed allocation and mballoc */
bool rule_ext4_delalloc_off(const struct phase_facts *x, struct finding *f);
bool rule_ext4_delalloc_defeated(const struct phase_facts *x,
				 struct finding *f);
bool rule_ext4_mballoc_scanning(const struct phase_facts *x, struct finding *f);

/* rules_bound.c: what the phase waited for */
bool rule_dirty_throttled(const struct phase_facts *x, struct finding *f);
bool rule_free_space_flush(const struct phase_facts *x, struct finding *f);
bool rule_lock_contention(const struct phase_facts *x, struct finding *f);
bool rule_device_bound(const struct phase_facts *x, struct finding *f);
bool rule_cpu_bound(const struct phase_facts *x, struct finding *f);
bool rule_cache_bound(const struct phase_facts *x, struct finding *f);

/* rules_meta.c: metadata read from the device */
bool rule_metadata_read_bound(const struct phase_facts *x, struct finding *f);

/* rules_caveats.c: what limits how far the numbers can be trusted */
bool rule_spill_over(const struct phase_facts *x, struct finding *f);
bool rule_throttle_not_held(const struct phase_facts *x, struct finding *f);
bool rule_short_phase(const struct phase_facts *x, struct finding *f);
bool rule_fits_in_ram(const struct phase_facts *x, struct finding *f);
bool rule_inflight_at_end(const struct phase_facts *x, struct finding *f);
bool rule_cpu_stolen(const struct phase_facts *x, struct finding *f);

/* compare.c: the same phase on several targets */
bool rule_target_difference(const struct compare_ctx *cx, struct finding *f);

#endif
