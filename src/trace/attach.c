// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
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

const char *program_def_tracepoint(const struct program_def *def)
{
	const char *colon = strchr(def->event, ':');

	return colon ? colon + 1 : def->event;
}

static const struct bpf_prog_skeleton *
skel_prog(const struct bpf_object_skeleton *skel, const char *name)
{
	const char *p = (const char *)skel->progs;
	int i;

	for (i = 0; i < skel->prog_cnt; i++, p += skel->prog_skel_sz) {
		const struct bpf_prog_skeleton *ps = (const void *)p;

		if (!strcmp(ps->name, name))
			return ps;
	}
	return NULL;
}

int program_slots_fill(const struct bpf_object_skeleton *skel,
		       const struct program_def *defs, int n,
		       struct program_slot *slots)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct bpf_prog_skeleton *ps =
			skel_prog(skel, defs[i].name);

		if (!ps) {
			log_warn("%s: no BPF program %s for %s", skel->name,
				 defs[i].name, defs[i].event);
			return -ENOENT;
		}
		slots[i] = (struct program_slot){ *ps->prog, ps->link,
						  defs[i].event, false };
	}
	return 0;
}

void detach_programs(struct program_slot *slots, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (slots[i].link && *slots[i].link) {
			bpf_link__destroy(*slots[i].link);
			*slots[i].link = NULL;
		}
}
