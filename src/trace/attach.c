// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "trace/attach.h"
#include "util/log.h"

static void attach_record_fill(struct attach_record *rec, const char *domain,
			       const struct program_slot *slot,
			       enum attach_state state, int err)
{
	snprintf(rec->domain, sizeof(rec->domain), "%s", domain);
	snprintf(rec->program, sizeof(rec->program), "%s",
		 bpf_program__name(slot->prog));
	snprintf(rec->event, sizeof(rec->event), "%s", slot->event);
	rec->state = state;
	if (state == ATTACH_MISSING)
		snprintf(rec->reason, sizeof(rec->reason),
			 "this kernel has no tracepoint %s", slot->event);
	else if (state == ATTACH_FAILED)
		snprintf(rec->reason, sizeof(rec->reason), "attach: %s",
			 strerror_safe(-err));
}

int attach_programs(const char *domain, struct program_slot *slots, int n,
		    struct attach_list *list)
{
	int i, attached = 0;

	for (i = 0; i < n; i++) {
		struct program_slot *slot = &slots[i];
		struct attach_record *rec;
		enum attach_state state;
		struct bpf_link *link;
		int err = 0;

		if (slot->missing) {
			state = ATTACH_MISSING;
		} else if (!bpf_program__autoload(slot->prog)) {
			continue; /* an alternative variant for another kernel */
		} else {
			link = bpf_program__attach(slot->prog);
			err = libbpf_get_error(link);
			if (err) {
				state = ATTACH_FAILED;
				log_warn("%s: attach %s to %s: %s", domain,
					 bpf_program__name(slot->prog),
					 slot->event, strerror_safe(-err));
			} else {
				*slot->link = link;
				state = ATTACH_ATTACHED;
				attached++;
			}
		}
		rec = attach_list_add(list);
		if (rec)
			attach_record_fill(rec, domain, slot, state, err);
	}
	return attached;
}
