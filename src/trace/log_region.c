// SPDX-License-Identifier: GPL-2.0
/* The log's LBA ranges: see log_region.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "trace/log_region.h"
#include "util/log.h"

#define SECTOR_SHIFT 9
#define XFS_SB_MAGIC 0x58465342 /* "XFSB" */

int log_region_add(struct log_region *r, uint64_t start, uint64_t sectors)
{
	if (r->n) {
		uint64_t *last_start = &r->range[r->n - 1].start;
		uint64_t *last_len = &r->range[r->n - 1].sectors;

		if (*last_start + *last_len == start) {
			*last_len += sectors;
			return 0;
		}
	}
	if (r->n == BLK_LOG_MAX_RANGES)
		return -ENOSPC;
	r->range[r->n].start = start;
	r->range[r->n].sectors = sectors;
	r->n++;
	return 0;
}

uint64_t xfs_fsb_to_sector(uint64_t fsb, unsigned int agblklog,
			   uint32_t agblocks, unsigned int blocklog)
{
	uint64_t agno = fsb >> agblklog;
	uint64_t agbno = fsb & ((1ULL << agblklog) - 1);

	return (agno * agblocks + agbno) << (blocklog - SECTOR_SHIFT);
}

static int log_range_cmp(const void *a, const void *b)
{
	const struct log_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

size_t log_ranges_merge(struct log_range *v, size_t n)
{
	size_t i, out = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), log_range_cmp);
	for (i = 1; i < n; i++) {
		uint64_t end = v[out].start + v[out].sectors;

		if (v[i].start <= end) {
			if (v[i].start + v[i].sectors > end)
				v[out].sectors = v[i].start + v[i].sectors -
						 v[out].start;
			continue;
		}
		v[++out] = v[i];
	}
	return out + 1;
}

/* every block of the journal inode: its data and its mapping blocks */
struct journal_walk {
	struct log_range *v;
	size_t n, cap;
	uint64_t sectors_per_block;
	uint64_t mapping_blocks; /* IND/DIND/TIND or extent tree blocks */
	int err;
};

static int journal_walk_add(struct journal_walk *w, uint64_t start)
{
	struct log_range *grown;

	/* blocks mostly come in order: grow the last range when we can */
	if (w->n && w->v[w->n - 1].start + w->v[w->n - 1].sectors == start) {
		w->v[w->n - 1].sectors += w->sectors_per_block;
		return 0;
	}
	if (w->n == w->cap) {
		grown = reallocarray(w->v, w->cap ? 2 * w->cap : 64,
				     sizeof(*w->v));
		if (!grown)
			return -ENOMEM;
		w->v = grown;
		w->cap = w->cap ? 2 * w->cap : 64;
	}
	w->v[w->n].start = start;
	w->v[w->n].sectors = w->sectors_per_block;
	w->n++;
	return 0;
}

static int journal_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
			 blk64_t ref_blk, int ref_offset, void *priv)
{
	struct journal_walk *w = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	/*
	 * An indirect (or extent tree) block is part of the log region too:
	 * ext3's journal has an IND block after every blocksize / 4 data
	 * blocks, and only with them are its data runs one contiguous range.
	 */
	if (blockcnt < 0)
		w->mapping_blocks++;
	w->err = journal_walk_add(w, *blocknr * w->sectors_per_block);
	return w->err ? BLOCK_ABORT : 0;
}

/* the journal's ranges, sorted and merged, into out; *n_out how many */
static int journal_ranges_set(struct journal_walk *w, struct log_region *out,
			      size_t *n_out)
{
	size_t i, n = log_ranges_merge(w->v, w->n);

	*n_out = n;
	if (n > BLK_LOG_MAX_RANGES)
		return -ENOSPC;
	for (i = 0; i < n; i++) {
		out->range[i].start = w->v[i].start;
		out->range[i].sectors = w->v[i].sectors;
	}
	out->n = n;
	return 0;
}

/* the ext3/ext4 journal inode's blocks, merged where contiguous */
static int ext_journal_region(const char *device, const char *fstype,
			      struct log_region *out)
{
	struct journal_walk walk = { .v = NULL };
	ext2_filsys fs;
	errcode_t rc;
	ext2_ino_t ino;
	size_t n;
	int err = 0;

	rc = ext2fs_open(device, EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (rc) {
		snprintf(out->source, sizeof(out->source),
			 "%s: ext2fs_open %s: %s", fstype, device,
			 error_message(rc));
		return -EIO;
	}
	ino = fs->super->s_journal_inum;
	if (!ext2fs_has_feature_journal(fs->super)) {
		snprintf(out->source, sizeof(out->source), "%s: no journal",
			 fstype);
		goto out;
	}
	if (!ino) {
		unsigned int jmaj, jmin;

		ext4_journal_dev_decode(fs->super->s_journal_dev, &jmaj, &jmin);
		snprintf(
			out->source, sizeof(out->source),
			"%s: external journal (device %u:%u), not on this device",
			fstype, jmaj, jmin);
		goto out;
	}
	walk.sectors_per_block = (uint64_t)fs->blocksize >> SECTOR_SHIFT;
	/* no BLOCK_FLAG_DATA_ONLY: the mapping blocks are visited too */
	rc = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				   journal_block, &walk);
	if (rc || walk.err) {
		snprintf(out->source, sizeof(out->source),
			 "%s: reading journal inode %u: %s", fstype, ino,
			 walk.err ? strerror_safe(-walk.err) :
				    error_message(rc));
		err = walk.err ? walk.err : -EIO;
		goto out;
	}
	err = journal_ranges_set(&walk, out, &n);
	if (err) {
		snprintf(
			out->source, sizeof(out->source),
			"%s: journal inode %u lies in %zu discontiguous ranges, more than the %d the block domain can class",
			fstype, ino, n, BLK_LOG_MAX_RANGES);
		goto out;
	}
	if (walk.mapping_blocks)
		snprintf(
			out->source, sizeof(out->source),
			"%s journal inode %u (libext2fs, with its %llu mapping blocks)",
			fstype, ino, (unsigned long long)walk.mapping_blocks);
	else
		snprintf(out->source, sizeof(out->source),
			 "%s journal inode %u (libext2fs)", fstype, ino);
out:
	free(walk.v);
	ext2fs_close_free(&fs);
	return err;
}

static uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64_at(const unsigned char *p)
{
	return (uint64_t)be32_at(p) << 32 | be32_at(p + 4);
}

/* the XFS internal log from the primary superblock (struct xfs_dsb) */
static int xfs_log_region(const char *device, struct log_region *out)
{
	unsigned char sb[512];
	unsigned int blocklog, agblklog;
	uint64_t logstart, start, sectors;
	uint32_t agblocks, logblocks;
	ssize_t n;
	int fd;

	fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out->source, sizeof(out->source), "xfs: open %s: %s",
			 device, strerror_safe(errno));
		return -errno;
	}
	n = pread(fd, sb, sizeof(sb), 0);
	close(fd);
	if (n != (ssize_t)sizeof(sb) || be32_at(sb) != XFS_SB_MAGIC) {
		snprintf(out->source, sizeof(out->source),
			 "xfs: %s has no XFS superblock at offset 0", device);
		return -EIO;
	}
	logstart = be64_at(sb + 48); /* sb_logstart */
	agblocks = be32_at(sb + 84); /* sb_agblocks */
	logblocks = be32_at(sb + 96); /* sb_logblocks */
	blocklog = sb[120]; /* sb_blocklog */
	agblklog = sb[124]; /* sb_agblklog */
	if (blocklog < SECTOR_SHIFT || blocklog > 16 || agblklog > 32 ||
	    be32_at(sb + 4) != 1U << blocklog) {
		snprintf(
			out->source, sizeof(out->source),
			"xfs: %s: superblock geometry makes no sense (blocklog %u, agblklog %u)",
			device, blocklog, agblklog);
		return -EIO;
	}
	if (!logstart) {
		snprintf(out->source, sizeof(out->source),
			 "xfs: external log, not on this device");
		return 0;
	}
	start = xfs_fsb_to_sector(logstart, agblklog, agblocks, blocklog);
	sectors = (uint64_t)logblocks << (blocklog - SECTOR_SHIFT);
	log_region_add(out, start, sectors);
	snprintf(out->source, sizeof(out->source),
		 "xfs sb_logstart %llu, sb_logblocks %u",
		 (unsigned long long)logstart, logblocks);
	return 0;
}

/* where a partition starts on its disk, in sectors; 0 for a whole disk */
static uint64_t partition_start(const char *device)
{
	unsigned long long start = 0;
	char path[128];
	struct stat st;
	FILE *f;

	if (stat(device, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/start",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &start) != 1)
		start = 0;
	fclose(f);
	return start;
}

void ext4_journal_dev_decode(uint32_t s_journal_dev, unsigned int *major,
			     unsigned int *minor)
{
	*major = (s_journal_dev & 0xfff00) >> 8;
	*minor = (s_journal_dev & 0xff) | ((s_journal_dev >> 12) & 0xfff00);
}

int log_region_read(const char *device, const char *fstype,
		    struct log_region *out)
{
	uint64_t offset;
	unsigned int i;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	if (!strcmp(fstype, "ext2") || !strcmp(fstype, "ext3") ||
	    !strcmp(fstype, "ext4"))
		err = ext_journal_region(device, fstype, out);
	else if (!strcmp(fstype, "xfs"))
		err = xfs_log_region(device, out);
	else {
		snprintf(out->source, sizeof(out->source),
			 "%s: fsprof does not know where its log is", fstype);
		return 0;
	}
	/* block requests carry sectors of the whole disk */
	offset = out->n ? partition_start(device) : 0;
	if (!offset)
		return err;
	for (i = 0; i < out->n; i++)
		out->range[i].start += offset;
	len = strlen(out->source);
	snprintf(out->source + len, sizeof(out->source) - len,
		 ", + partition start %llu", (unsigned long long)offset);
	return err;
}
